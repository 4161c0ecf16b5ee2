/*
 * The 5-minute heart-rate variability of a user's main sleep (Fitbit's
 * "HRV intraday", providers.md §1.7.10): one measurement at each 5-minute
 * instant of the night from the sleep's start to its end, except where too
 * few interbeat intervals were seen (about one in twelve, left out as
 * Fitbit leaves them out). rmssd scatters around the night's dailyRmssd;
 * coverage is the share of interbeat intervals seen; hf and lf the power in
 * the high and low frequency bands. Both APIs report the same samples: the
 * legacy `/hrv/date/{date}/all.json` `minutes` (local wall clock) and
 * Google's `heart-rate-variability` samples (instants).
 */
import { fitbitDay } from './fitbit-daily.js';
import { prng } from './fitbit-intraday.js';

export interface HrvSample {
  /** The instant, ms. */
  at: number;
  rmssd: number;
  coverage: number;
  hf: number;
  lf: number;
}

const FIVE_MINUTES = 300_000;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The samples of the main sleep ending on `date` (its wake-up date), whose
 * start is the instant `startMs`; empty when the night has no HRV (no main
 * sleep, or a night off the wrist).
 */
export function fitbitHrvIntraday(userId: string, date: string, startMs: number): HrvSample[] {
  const day = fitbitDay(userId, date);
  if (!day.sleep || !day.hrv) return [];
  const end = startMs + (day.sleep.minutesAsleep + day.sleep.wake) * 60_000;
  const next = prng(`${userId}:${date}:hrv-intraday`);
  const out: HrvSample[] = [];
  for (let t = Math.ceil(startMs / FIVE_MINUTES) * FIVE_MINUTES; t < end; t += FIVE_MINUTES) {
    const coverage = 0.55 + next() * 0.45;
    const spread = next();
    const band = next();
    if (coverage < 0.6) continue;
    const rmssd = day.hrv.dailyRmssd * (0.7 + spread * 0.6);
    out.push({
      at: t,
      rmssd: round3(rmssd),
      coverage: round3(coverage),
      hf: round3(rmssd * rmssd * (0.15 + band * 0.3)),
      lf: round3(rmssd * rmssd * (0.4 + band * 0.8)),
    });
  }
  return out;
}
