/*
 * Calendar dates in the participant's zone. The server runs in UTC; what a
 * participant calls "today" depends on their IANA zone (and its DST rules),
 * so every window of days is counted from the local date of `now` there.
 */

/** The local date (YYYY-MM-DD) of an instant in an IANA zone. */
export function localDate(now: Date, timeZone: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** A calendar date plus n days (no zone involved: dates are labels, not instants). */
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The `count` dates ending on `last`, oldest first. */
export function datesEnding(last: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addDays(last, i - count + 1));
}
