/*
 * The legacy night as Google reports it: the main sleep (same start, same
 * minutes per stage) as a STAGES session with a generated stage sequence,
 * and the skin-temperature baseline the legacy relative values are from.
 */
import { createHash } from 'node:crypto';
import { instantOfLocal } from '@trialwear/zone';
import { fitbitDay } from '../../fitbit/fitbit-daily.js';
import { prng } from '../../fitbit/fitbit-intraday.js';
import { type Person, zoneOfDate } from '../person.js';
import { round, sum } from './legacy-day.js';

export interface SleepSession {
  id: string;
  start: number;
  end: number;
  tz: string;
  date: string;
  stages: Array<{ type: 'AWAKE' | 'LIGHT' | 'DEEP' | 'REM'; start: number; end: number }>;
  minutes: { asleep: number; awake: number; inBed: number; deep: number; light: number; rem: number };
}

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

/** The legacy main sleep of a wake-up date as a Google session with stages. */
export function sleepSession(person: Person, date: string): SleepSession | null {
  const s = fitbitDay(person.dataUserId, date).sleep;
  if (!s) return null;
  const tz = zoneOfDate(person, date);
  const inBed = s.minutesAsleep + s.wake;
  const start = instantOfLocal(tz, s.start.slice(0, 19));
  const next = prng(`${person.dataUserId}:${date}:stages`);
  const cycles = 4 + Math.floor(next() * 2);
  const light = parts(s.light, cycles, next);
  const deep = parts(s.deep, cycles, next);
  const rem = parts(s.rem, cycles, next);
  const wake = parts(s.wake, cycles, next);
  const stages: SleepSession['stages'] = [];
  let t = start;
  const push = (type: SleepSession['stages'][number]['type'], minutes: number | undefined) => {
    if (!minutes) return;
    stages.push({ type, start: t, end: t + minutes * 60_000 });
    t += minutes * 60_000;
  };
  for (let i = 0; i < cycles; i++) {
    push('LIGHT', light[i]);
    push('DEEP', deep[i]);
    push('REM', rem[i]);
    push('AWAKE', wake[i]);
  }
  return {
    // The legacy logId's digits: the same night has the same id on both APIs.
    id: `${date.replaceAll('-', '')}${String(person.dataUserId.charCodeAt(0)).padStart(3, '0')}`,
    start,
    end: start + inBed * 60_000,
    tz,
    date,
    stages,
    minutes: { asleep: s.minutesAsleep, awake: s.wake, inBed, deep: s.deep, light: s.light, rem: s.rem },
  };
}

/** The user's skin-temperature baseline (30-day median), °C: 33.20–34.80, the legacy relative values are from it. */
export function skinBaseline(dataUserId: string): number {
  return round(
    33.2 + (createHash('sha256').update(`${dataUserId}:skin`).digest().readUInt16BE(0) / 0xffff) * 1.6,
    2,
  );
}
