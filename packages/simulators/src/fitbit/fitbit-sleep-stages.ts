/*
 * The stage sequence of a user's main sleep of a wake-up date: cycles of
 * light, deep, REM and wake whose minutes add up to the night's stage
 * minutes (fitbitDay's sleep). Both APIs report this same night: the legacy
 * `levels.data` (providers.md §1.7.6) and Google's session `stages`
 * (google-health-api.md §3.10), so the two simulators agree stage by stage.
 */
import { fitbitDay } from './fitbit-daily.js';
import { prng } from './fitbit-intraday.js';

export type SleepLevel = 'light' | 'deep' | 'rem' | 'wake';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Positive integer parts of `total` (n of them, or fewer when total < n), pseudo-random sizes. */
function parts(total: number, n: number, next: () => number): number[] {
  const k = Math.max(1, Math.min(n, total));
  const w = Array.from({ length: k }, () => 0.5 + next());
  const ws = sum(w);
  const out = w.map((x) => Math.max(1, Math.floor((x / ws) * total)));
  out[out.length - 1]! += total - sum(out);
  // The last part may have gone below 1 when the others were raised to 1: take from the largest.
  while (out[out.length - 1]! < 1) {
    const i = out.indexOf(Math.max(...out));
    out[i]! -= 1;
    out[out.length - 1]! += 1;
  }
  return out;
}

/** The night's stages in order, each with its minutes; empty when the user has no main sleep that date. */
export function fitbitSleepStages(
  userId: string,
  date: string,
): Array<{ level: SleepLevel; minutes: number }> {
  const s = fitbitDay(userId, date).sleep;
  if (!s) return [];
  const next = prng(`${userId}:${date}:stages`);
  const cycles = 4 + Math.floor(next() * 2);
  const light = parts(s.light, cycles, next);
  const deep = parts(s.deep, cycles, next);
  const rem = parts(s.rem, cycles, next);
  const wake = parts(s.wake, cycles, next);
  const out: Array<{ level: SleepLevel; minutes: number }> = [];
  for (let i = 0; i < cycles; i++)
    for (const [level, xs] of [
      ['light', light],
      ['deep', deep],
      ['rem', rem],
      ['wake', wake],
    ] as const)
      if (xs[i]) out.push({ level, minutes: xs[i]! });
  return out;
}
