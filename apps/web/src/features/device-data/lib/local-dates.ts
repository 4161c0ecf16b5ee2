/*
 * Calendar dates for the forms, in the browser's zone: a person picks "7 days
 * ago" on their own calendar. The provider's answers carry the participant's
 * local times, which the pages show as they are (never re-zoned).
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD of a Date in the browser's zone. */
export const localDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** YYYY-MM-DDTHH:mm:ss of a Date in the browser's zone (Dexcom's query format). */
export const localDateTime = (d: Date) =>
  `${localDate(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

/** The local date `days` days before `now`. */
export function daysAgo(days: number, now: Date = new Date()): string {
  const d = new Date(now);
  d.setDate(d.getDate() - days);
  return localDate(d);
}

/**
 * A provider's local wall-clock time (ISO without offset, or with one that is
 * dropped) as chart seconds: read as if UTC, so a chart drawn in UTC shows the
 * participant's own clock whatever the viewer's zone.
 */
export function wallClockSeconds(local: string): number {
  return Date.parse(`${local.slice(0, 19)}Z`) / 1000;
}

/** 'YYYY-MM-DD HH:mm' of a provider's local time, for tables. */
export const showLocal = (local: string) => local.slice(0, 16).replace('T', ' ');
