/*
 * Calendar dates (YYYY-MM-DD) as labels: no zone and no instant involved,
 * so the arithmetic is UTC's (every UTC day has 24 hours).
 */

const DAY_MS = 86_400_000;
const dateOfUtcMs = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A calendar date plus n days (n may be negative). */
export const addDays = (date: string, n: number): string =>
  dateOfUtcMs(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS);

/** Whole days from `start` to `end` (negative when `end` is earlier). */
export const daysFrom = (start: string, end: string): number =>
  Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS);

/** `date` moved by whole calendar months, the day of month kept (or the month's last day). */
export function addMonths(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + n);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.toISOString().slice(0, 10);
}

/** The dates from `start` to `end`, both included (none when end < start), at most `limit` of them. */
export function datesBetween(start: string, end: string, limit = Number.POSITIVE_INFINITY): string[] {
  const out: string[] = [];
  for (let d = start; d <= end && out.length < limit; d = addDays(d, 1)) out.push(d);
  return out;
}

/** The `count` dates ending on `last`, oldest first. */
export function datesEnding(last: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addDays(last, i - count + 1));
}

/** The UTC calendar date of an instant. */
export const utcDate = (t: number | Date): string => dateOfUtcMs(+t);
