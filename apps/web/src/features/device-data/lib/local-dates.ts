/*
 * Calendar dates for the forms, in the browser's zone: a person picks "7 days
 * ago" on their own calendar. The provider's answers carry the participant's
 * local times, which the pages show as they are (never re-zoned).
 */

import { addDays, runtimeZone, wallClock, localDate as zoneLocalDate } from '@trialwear/zone';

/** YYYY-MM-DD of a Date in the browser's zone. */
export const localDate = (d: Date) => zoneLocalDate(runtimeZone(), d);

/** YYYY-MM-DDTHH:mm:ss of a Date in the browser's zone (Dexcom's query format). */
export const localDateTime = (d: Date) => wallClock(runtimeZone(), d);

/** The local date `days` days before `now`. */
export const daysAgo = (days: number, now: Date = new Date()): string => addDays(localDate(now), -days);

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
