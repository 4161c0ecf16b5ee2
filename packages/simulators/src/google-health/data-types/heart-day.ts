/*
 * The legacy day's heart rate as Google reports it: samples at the legacy
 * 1sec instants whose minute means are the legacy 1min values (the legacy
 * 1sec and 1min levels are not consistent with each other; Google computes
 * roll-ups from the samples), the day's heart-rate zones, and the minutes
 * spent in each zone.
 */
import { createHash } from 'node:crypto';
import { fitbitDay } from '../../fitbit/fitbit-daily.js';
import { fitbitIntradayDataset } from '../../fitbit/fitbit-intraday.js';
import { heartOf, minuteInstants, spread, sum } from './legacy-day.js';
import type { DayCtx } from './spec.js';

/** Heart-rate samples: the legacy 1sec instants, each minute's values nudged so their mean is the legacy 1min value. */
export function heartSamples(c: DayCtx): Array<{ t: number; bpm: number }> {
  const id = c.person.dataUserId;
  const perMinute = heartOf(id, c.date);
  const at = minuteInstants(c.tz, c.date);
  const byMinute = new Map<number, Array<{ s: number; v: number }>>();
  for (const e of fitbitIntradayDataset(id, c.date, 'heart', '1sec').dataset) {
    const m = Number(e.time.slice(0, 2)) * 60 + Number(e.time.slice(3, 5));
    if (Number.isNaN(at[m]!) || perMinute[m] === null || perMinute[m] === undefined) continue;
    const list = byMinute.get(m) ?? [];
    list.push({ s: Number(e.time.slice(6, 8)), v: e.value });
    byMinute.set(m, list);
  }
  const out: Array<{ t: number; bpm: number }> = [];
  for (const [m, list] of byMinute) {
    const values = list.map((x) => x.v);
    spread(values, perMinute[m]! * values.length - sum(values), 1);
    list.forEach((x, i) => {
      out.push({ t: at[m]! + x.s * 1000, bpm: values[i]! });
    });
  }
  return out;
}

/** The user's age (the profile's) and so the Karvonen heart-rate zones of a day (§3.9 daily-heart-rate-zones). */
export function ageOf(dataUserId: string): number {
  return 25 + (createHash('sha256').update(`${dataUserId}:profile`).digest().readUInt8(2) % 45);
}

export const HR_ZONES = ['LIGHT', 'MODERATE', 'VIGOROUS', 'PEAK'] as const;
export type HrZone = (typeof HR_ZONES)[number];
/**
 * [I] Zones by heart-rate reserve (max 220 − age, rest the day's resting
 * heart rate): LIGHT 30–39 %, MODERATE 40–59 % (the legacy fat burn),
 * VIGOROUS 60–84 % (cardio), PEAK 85 % and above.
 */
export function hrZones(
  dataUserId: string,
  date: string,
): Array<{ zone: HrZone; min: number; max: number }> | null {
  const rhr = fitbitDay(dataUserId, date).restingHeartRate;
  if (rhr === null) return null;
  const max = 220 - ageOf(dataUserId);
  const at = (pct: number) => Math.round(rhr + ((max - rhr) * pct) / 100);
  return [
    { zone: 'LIGHT', min: at(30), max: at(40) - 1 },
    { zone: 'MODERATE', min: at(40), max: at(60) - 1 },
    { zone: 'VIGOROUS', min: at(60), max: at(85) - 1 },
    { zone: 'PEAK', min: at(85), max },
  ];
}

/** Each existing minute's zone (from the legacy 1min heart rate), consecutive minutes of a zone as one interval. */
export function zoneIntervals(c: DayCtx): Array<{ zone: HrZone; start: number; end: number }> {
  const zones = hrZones(c.person.dataUserId, c.date);
  if (!zones) return [];
  const hr = heartOf(c.person.dataUserId, c.date);
  const at = minuteInstants(c.tz, c.date);
  const out: Array<{ zone: HrZone; start: number; end: number }> = [];
  for (let m = 0; m < 1440; m++) {
    const v = hr[m];
    if (Number.isNaN(at[m]!) || v === null || v === undefined) continue;
    const z = [...zones].reverse().find((x) => v >= x.min)?.zone;
    if (!z) continue;
    const last = out[out.length - 1];
    if (last && last.zone === z && last.end === at[m]) last.end += 60_000;
    else out.push({ zone: z, start: at[m]!, end: at[m]! + 60_000 });
  }
  return out;
}

export const AZM: Partial<Record<HrZone, { zone: string; credit: number; field: string }>> = {
  MODERATE: { zone: 'FAT_BURN', credit: 1, field: 'sumInFatBurnHeartZone' },
  VIGOROUS: { zone: 'CARDIO', credit: 2, field: 'sumInCardioHeartZone' },
  PEAK: { zone: 'PEAK', credit: 2, field: 'sumInPeakHeartZone' },
};
