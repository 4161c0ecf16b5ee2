/*
 * The legacy Fitbit day read minute by minute in the day's zone: the
 * wall-clock minutes that exist, the legacy per-minute steps and heart
 * rate (memoized: several types read the same day), and the small numeric
 * helpers the derivations share.
 *
 * Wall-clock minutes follow the day's zone: a minute skipped when clocks go
 * forward has no point, a repeated minute is its first occurrence.
 */

import { addDays, instantOfLocal, offsetMinutesAt, wallClockMs } from '@trialwear/zone';
import { fitbitIntradayHeart, fitbitIntradaySteps } from '../../fitbit/fitbit-daily.js';
import { onDeviceStateChange } from '../../fitbit/fitbit-device-state.js';
import type { DayCtx } from './spec.js';

/** The legacy profile's memberSince: no data before it. */
export const MEMBER_SINCE = '2023-01-10';

const DAY = 86_400_000;
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
export const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Spread an integer `delta` over `values` one `unit` at a time, from the last entry back. */
export function spread(values: number[], delta: number, unit: number) {
  let left = delta;
  for (
    let i = values.length - 1;
    left !== 0 && values.length > 0;
    i = (i - 1 + values.length) % values.length
  ) {
    const step = Math.abs(left) >= unit ? Math.sign(left) * unit : left;
    values[i]! += step;
    left -= step;
  }
}

const minuteMemo = new Map<string, Float64Array>();
/**
 * The instants of the wall-clock minutes 0–1439 of a local date in a zone:
 * NaN for a minute skipped when clocks go forward; a repeated minute's first
 * occurrence.
 */
export function minuteInstants(tz: string, date: string): Float64Array {
  const key = `${tz}:${date}`;
  const hit = minuteMemo.get(key);
  if (hit) return hit;
  const out = new Float64Array(1440);
  const midnight = instantOfLocal(tz, `${date}T00:00`);
  const next = instantOfLocal(tz, `${addDays(date, 1)}T00:00`);
  if (next - midnight === DAY && offsetMinutesAt(tz, midnight) === offsetMinutesAt(tz, next - 1)) {
    // No change of offset that day (nearly every day): minutes follow midnight.
    for (let m = 0; m < 1440; m++) out[m] = midnight + m * 60_000;
  } else {
    for (let m = 0; m < 1440; m++) {
      const local = `${date}T${hhmm(m)}`;
      const t = instantOfLocal(tz, local);
      out[m] = wallClockMs(tz, t).slice(0, 16) === local ? t : Number.NaN;
    }
  }
  if (minuteMemo.size > 5000) minuteMemo.clear();
  minuteMemo.set(key, out);
  return out;
}

const intradayMemo = new Map<string, unknown>();
onDeviceStateChange(() => intradayMemo.clear());
/** The legacy per-minute generators, kept per user and day (several types read the same day). */
function memo<T>(kind: string, userId: string, date: string, make: () => T): T {
  const key = `${kind}:${userId}:${date}`;
  if (intradayMemo.has(key)) return intradayMemo.get(key) as T;
  if (intradayMemo.size > 3000) intradayMemo.clear();
  const v = make();
  intradayMemo.set(key, v);
  return v;
}
export const stepsOf = (userId: string, date: string) =>
  memo('steps', userId, date, () => fitbitIntradaySteps(userId, date));
export const heartOf = (userId: string, date: string) =>
  memo('heart', userId, date, () => fitbitIntradayHeart(userId, date));

/** Minutes (wall-clock, existing in the day's zone) with steps, and their steps. */
export function stepMinutes(c: DayCtx): Array<{ m: number; t: number; s: number }> {
  const steps = stepsOf(c.person.dataUserId, c.date);
  const at = minuteInstants(c.tz, c.date);
  const out: Array<{ m: number; t: number; s: number }> = [];
  for (let m = 0; m < 1440; m++)
    if (steps[m]! > 0 && !Number.isNaN(at[m]!)) out.push({ m, t: at[m]!, s: steps[m]! });
  return out;
}
