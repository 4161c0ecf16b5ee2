/*
 * Offsets and wall clocks of instants in an IANA zone (DST included), from
 * the runtime's Intl data: the one place that asks Intl for zone rules.
 * Everything else in this package is arithmetic on what these return.
 *
 * They run per data point (a day of one-second heart rate is 86,400 calls),
 * so each zone has one formatter, and offsets are cached per zone and UTC
 * quarter hour: a quarter hour whose start and end offsets agree has that
 * offset throughout (no zone changes twice within 15 minutes); one that
 * contains a change asks Intl for the very second, so the answer is always
 * the offset at the instant's whole second.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's formatter of year … second (throws a RangeError for a zone the runtime does not know). */
function formatter(tz: string): Intl.DateTimeFormat {
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
    // Zone names come from providers and people ('utc', 'Etc/GMT+5', any casing): bound the cache.
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(tz, f);
  }
  return f;
}

/** The offset at a whole second `at`, in ms, asked of Intl. */
function offsetFromIntl(tz: string, at: number): number {
  const p: Record<string, number> = {};
  for (const { type, value } of formatter(tz).formatToParts(new Date(at))) p[type] = Number(value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - at;
}

const QUARTER = 15 * 60_000;
const MAX_CACHED_PER_ZONE = 100_000;
const quarterStarts = new Map<string, Map<number, number>>();

/** The offset (ms) at the start of UTC quarter hour `q`, cached. */
function offsetAtQuarter(tz: string, q: number): number {
  let zone = quarterStarts.get(tz);
  if (!zone) {
    if (quarterStarts.size >= 1000) quarterStarts.clear();
    zone = new Map();
    quarterStarts.set(tz, zone);
  }
  const hit = zone.get(q);
  if (hit !== undefined) return hit;
  const offset = offsetFromIntl(tz, q * QUARTER);
  if (zone.size >= MAX_CACHED_PER_ZONE) zone.clear();
  zone.set(q, offset);
  return offset;
}

/** The zone's offset from UTC at an instant, in ms (positive east of Greenwich; seconds precision). */
export function offsetMsAt(tz: string, t: number): number {
  const at = Math.floor(t / 1000) * 1000;
  const q = Math.floor(at / QUARTER);
  const start = offsetAtQuarter(tz, q);
  if (start === offsetAtQuarter(tz, q + 1)) return start;
  return offsetFromIntl(tz, at);
}

/** The zone's offset from UTC in minutes at an instant (e.g. -420 for Los Angeles in summer). */
export function offsetMinutesAt(tz: string, t: number): number {
  return Math.round(offsetMsAt(tz, t) / 60_000);
}

/** The local date and time of an instant as numbers (month 1–12). */
export interface WallClockParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** The wall clock of an instant in the zone, as parts. */
export function wallClockParts(tz: string, t: number | Date): WallClockParts {
  const ms = +t;
  const d = new Date(ms + offsetMsAt(tz, ms));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
  };
}

/** The wall clock of an instant in the zone with milliseconds: 'YYYY-MM-DDTHH:mm:ss.sss' (no offset). */
export function wallClockMs(tz: string, t: number | Date): string {
  const ms = +t;
  return new Date(ms + offsetMsAt(tz, ms)).toISOString().slice(0, 23);
}

/** The wall clock of an instant in the zone: 'YYYY-MM-DDTHH:mm:ss'. */
export const wallClock = (tz: string, t: number | Date): string => wallClockMs(tz, t).slice(0, 19);

/** The local calendar date (YYYY-MM-DD) of an instant in the zone. */
export const localDate = (tz: string, t: number | Date): string => wallClockMs(tz, t).slice(0, 10);

/** Whether a string names a zone this runtime knows. */
export function isKnownZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** The runtime's own zone (in a browser: the viewer's). */
export const runtimeZone = (): string => new Intl.DateTimeFormat().resolvedOptions().timeZone;
