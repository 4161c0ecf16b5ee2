/*
 * Real time zones for the simulated users: IANA zones with their DST rules,
 * offsets computed by Intl for each instant (providers.md §4: one UTC ground
 * truth per user, rendered in each provider's local-time format). A local
 * wall-clock time that does not exist (the hour skipped when clocks go
 * forward) or exists twice (the hour repeated when they go back) is handled
 * as the provider's device would: see `instantOfLocal`.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string) {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

const QUARTER = 15 * 60_000;
const offsetCache = new Map<string, number>();

/** The zone's offset from UTC in minutes at an instant (e.g. -240 for New York in summer). */
export function offsetMinutesAt(tz: string, t: number): number {
  // Offsets change on quarter hours at most: one Intl call per zone and quarter hour.
  const q = Math.floor(t / QUARTER);
  const key = `${tz}:${q}`;
  const hit = offsetCache.get(key);
  if (hit !== undefined) return hit;
  const at = q * QUARTER;
  const p = Object.fromEntries(
    formatter(tz)
      .formatToParts(new Date(at))
      .map((x) => [x.type, x.value]),
  );
  const asUtc = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  const offset = Math.round((asUtc - at) / 60_000);
  if (offsetCache.size > 200_000) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

/** Local wall-clock time at an instant: `YYYY-MM-DDTHH:mm:ss.sss` (no offset). */
export function localIso(tz: string, t: number): string {
  return new Date(t + offsetMinutesAt(tz, t) * 60_000).toISOString().slice(0, 23);
}

/** The local date at an instant. */
export const localDateAt = (tz: string, t: number) => localIso(tz, t).slice(0, 10);

/** `+HH:MM` / `-HH:MM` for an offset in minutes. */
export function offsetText(min: number): string {
  const sign = min < 0 ? '-' : '+';
  const a = Math.abs(min);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/**
 * The instant of a local wall-clock time (`YYYY-MM-DDTHH:mm[:ss]`). A time
 * in the skipped hour is read with the offset before the change (so it lands
 * one hour later on the clock, as a device's clock would show it); a time in
 * the repeated hour is its first occurrence.
 */
export function instantOfLocal(tz: string, local: string): number {
  const asUtc = Date.parse(`${local.length === 16 ? `${local}:00` : local}Z`);
  const before = offsetMinutesAt(tz, asUtc - 36 * 3_600_000);
  const first = asUtc - before * 60_000;
  if (offsetMinutesAt(tz, first) === before) return first;
  return asUtc - offsetMinutesAt(tz, first) * 60_000;
}

/** Whether a local wall-clock time exists in the zone (false in the hour skipped by DST). */
export function localTimeExists(tz: string, local: string): boolean {
  return localIso(tz, instantOfLocal(tz, local)).slice(0, 16) === local.slice(0, 16);
}

/** Minutes of a local day: 1440, 1380 on the day clocks go forward, 1500 when they go back. */
export function localDayMinutes(tz: string, date: string): number {
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return Math.round((instantOfLocal(tz, `${next}T00:00`) - instantOfLocal(tz, `${date}T00:00`)) / 60_000);
}
