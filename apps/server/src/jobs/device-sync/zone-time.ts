/*
 * Instants and offsets in a participant's IANA zone, for readings a provider
 * gives as local dates or wall-clock times (Fitbit). The server runs in UTC;
 * the zone's own rules (DST included) give each instant its offset.
 */

import { offsetMinutesAt } from '../../time/zone.js';

/**
 * The instant of a local wall-clock time (`YYYY-MM-DDTHH:mm[:ss]`). A time in
 * the hour skipped by DST is read with the offset before the change; a time
 * in the repeated hour is its first occurrence (as a device's clock shows it).
 */
export function instantOfLocal(tz: string, local: string): number {
  const asUtc = Date.parse(`${local.length === 16 ? `${local}:00` : local.slice(0, 19)}Z`);
  const before = offsetMinutesAt(tz, asUtc - 36 * 3_600_000);
  const first = asUtc - before * 60_000;
  if (offsetMinutesAt(tz, first) === before) return first;
  return asUtc - offsetMinutesAt(tz, first) * 60_000;
}

/** `+HH:MM` / `-HH:MM` → minutes (Omron's dateTimeUtcOffset, Dexcom's displayTime suffix). */
export function parseOffset(text: string): number | null {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (!m) return null;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}
