/*
 * The legacy night as Google reports it: the main sleep (same start, same
 * minutes per stage) as a STAGES session with a generated stage sequence,
 * and the skin-temperature baseline the legacy relative values are from.
 */
import { createHash } from 'node:crypto';
import { instantOfLocal } from '@trialwear/zone';
import { fitbitDay } from '../../fitbit/fitbit-daily.js';
import { fitbitSleepStages } from '../../fitbit/fitbit-sleep-stages.js';
import { type Person, zoneOfDate } from '../person.js';
import { round } from './legacy-day.js';

export interface SleepSession {
  id: string;
  start: number;
  end: number;
  tz: string;
  date: string;
  stages: Array<{ type: 'AWAKE' | 'LIGHT' | 'DEEP' | 'REM'; start: number; end: number }>;
  minutes: { asleep: number; awake: number; inBed: number; deep: number; light: number; rem: number };
}

/** The legacy main sleep of a wake-up date as a Google session with stages. */
export function sleepSession(person: Person, date: string): SleepSession | null {
  const s = fitbitDay(person.dataUserId, date).sleep;
  if (!s) return null;
  const tz = zoneOfDate(person, date);
  const inBed = s.minutesAsleep + s.wake;
  const start = instantOfLocal(tz, s.start.slice(0, 19));
  const TYPE = { light: 'LIGHT', deep: 'DEEP', rem: 'REM', wake: 'AWAKE' } as const;
  const stages: SleepSession['stages'] = [];
  let t = start;
  for (const x of fitbitSleepStages(person.dataUserId, date)) {
    stages.push({ type: TYPE[x.level], start: t, end: t + x.minutes * 60_000 });
    t += x.minutes * 60_000;
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
