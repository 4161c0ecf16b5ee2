/*
 * Civil (local) dates and times for the Google Health adapter
 * (google-health-api.md §3.8): Google's `google.type.Date` and
 * `CivilDateTime` objects ↔ the legacy Fitbit strings, and wall-clock times
 * of instants in the user's IANA zone (DST included) for the windows the
 * adapter asks for in physical time (intraday roll-ups, paired-device sync
 * times). Pure functions; the server runs in UTC.
 */

import { offsetMinutesAt, wallClock } from '../../../time/zone.js';

export interface GoogleDate {
  year?: number;
  month?: number;
  day?: number;
}
export interface GoogleTimeOfDay {
  hours?: number;
  minutes?: number;
  seconds?: number;
}
export interface CivilDateTime {
  date?: GoogleDate;
  time?: GoogleTimeOfDay;
}

const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');

/** 'YYYY-MM-DD' → Google's Date object (numbers: a leading zero would be invalid JSON). */
export const googleDate = (d: string): GoogleDate => ({
  year: Number(d.slice(0, 4)),
  month: Number(d.slice(5, 7)),
  day: Number(d.slice(8, 10)),
});

/** Google's Date object → 'YYYY-MM-DD' (null when incomplete). */
export function dateText(d: GoogleDate | undefined): string | null {
  if (!d?.year || !d.month || !d.day) return null;
  return `${String(d.year).padStart(4, '0')}-${two(d.month)}-${two(d.day)}`;
}

/** Google's TimeOfDay → 'HH:mm:ss' (omitted fields are zero, proto3 JSON). */
export const timeText = (t: GoogleTimeOfDay | undefined) =>
  `${two(t?.hours)}:${two(t?.minutes)}:${two(t?.seconds)}`;

/** CivilDateTime → 'YYYY-MM-DDTHH:mm:ss' (null without a date). */
export function civilText(c: CivilDateTime | undefined): string | null {
  const d = dateText(c?.date);
  return d ? `${d}T${timeText(c?.time)}` : null;
}

/** A calendar date plus n days. */
export const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The dates from start to end inclusive. */
export function datesFrom(start: string, end: string): string[] {
  const out: string[] = [];
  for (let d = start; d <= end && out.length < 4000; d = addDays(d, 1)) out.push(d);
  return out;
}

/** A proto3 Duration ("5400s", "-14400s", "1.5s") → seconds; null when absent or unreadable. */
export function durationSeconds(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const m = /^(-?\d+(?:\.\d+)?)s$/.exec(v);
  return m ? Number(m[1]) : null;
}

/** An int64 (a JSON string in proto3 JSON) or a double → number; null when absent. */
export function num(v: unknown): number | null {
  const n = typeof v === 'string' && v !== '' ? Number(v) : typeof v === 'number' ? v : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

/** The instant of local midnight starting a date in the zone (a midnight skipped by DST: the first instant of the day). */
export function localMidnight(tz: string, date: string): number {
  const asUtc = Date.parse(`${date}T00:00:00Z`);
  let t = asUtc - offsetMinutesAt(tz, asUtc - 36 * 3_600_000) * 60_000;
  // Correct for an offset change between the guess and the day (at most twice).
  for (let i = 0; i < 2; i++) {
    const back = asUtc - offsetMinutesAt(tz, t) * 60_000;
    if (back === t) break;
    t = back;
  }
  // A skipped midnight lands on the previous day's wall clock: step forward to the day.
  while (wallClock(tz, t).slice(0, 10) < date) t += 60_000 * 15;
  return t;
}
