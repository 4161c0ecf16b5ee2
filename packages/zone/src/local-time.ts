/*
 * From local wall-clock times back to instants. A wall-clock time can name
 * no instant (the gap when clocks go forward) or two (the fold when they go
 * back); the rules below are the ones the portal and the simulators have
 * always used, so stored readings keep their instants:
 *
 * - fold (time repeated): the earlier instant, the first occurrence, as a
 *   device's clock shows it (New York 2026-11-01 01:30 → 05:30Z, EDT).
 * - gap (time skipped): read with the offset in force after the change, so
 *   the instant lies before the change and its own wall clock reads the gap's
 *   length earlier (New York 2026-03-08 02:30 → 06:30Z = 01:30 EST; Berlin
 *   2026-03-29 02:30 → 00:30Z = 01:30 CET). Temporal calls both rules
 *   disambiguation 'earlier'.
 * - the start of a local day is its first instant: a midnight skipped by DST
 *   (Santiago, Havana, Cairo, Beirut) starts its day at the change, 01:00.
 */

import { addDays } from './dates.js';
import { offsetMinutesAt, wallClock } from './offset.js';

/**
 * The instant (ms) of a local wall-clock time `YYYY-MM-DDTHH:mm[:ss]` in the zone
 * (anything after the seconds is ignored). Gap and fold: see the file's header.
 */
export function instantOfLocal(tz: string, local: string): number {
  const asUtc = Date.parse(`${local.length === 16 ? `${local}:00` : local.slice(0, 19)}Z`);
  const before = offsetMinutesAt(tz, asUtc - 36 * 3_600_000);
  const first = asUtc - before * 60_000;
  if (offsetMinutesAt(tz, first) === before) return first;
  return asUtc - offsetMinutesAt(tz, first) * 60_000;
}

/** Whether a local wall-clock time exists in the zone (false in a gap skipped by DST). */
export function localTimeExists(tz: string, local: string): boolean {
  return wallClock(tz, instantOfLocal(tz, local)).slice(0, 16) === local.slice(0, 16);
}

const secondsOfDay = (time: string) => {
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number);
  return h * 3600 + m * 60 + s;
};

/**
 * The instants (ms) of many wall-clock times (`HH:mm[:ss]`) of one local date:
 * the same as `instantOfLocal` for each, but the zone is asked twice (start and
 * end of the day); only a day on which the offset changes pays per time.
 */
export function instantsOfLocalTimes(tz: string, date: string, times: readonly string[]): number[] {
  const start = instantOfLocal(tz, `${date}T00:00:00`);
  const end = instantOfLocal(tz, `${date}T23:59:59`);
  if (end - start === 86_399_000) return times.map((t) => start + secondsOfDay(t) * 1000);
  return times.map((t) => instantOfLocal(tz, `${date}T${t}`));
}

/** The first instant (ms) of a local date in the zone (a midnight skipped by DST: the instant of the change). */
export function startOfLocalDay(tz: string, date: string): number {
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

/** Length of a local day in ms: 24 h, 23 h on the day clocks go forward, 25 h when they go back (Lord Howe: ±30 min). */
export const localDayMs = (tz: string, date: string): number =>
  startOfLocalDay(tz, addDays(date, 1)) - startOfLocalDay(tz, date);

/** Length of a local day in minutes: 1440, 1380 on the day clocks go forward, 1500 when they go back. */
export const localDayMinutes = (tz: string, date: string): number =>
  Math.round(localDayMs(tz, date) / 60_000);
