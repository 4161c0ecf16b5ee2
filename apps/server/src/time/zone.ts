/*
 * Wall-clock times and offsets of instants in an IANA zone (DST included),
 * from the runtime's Intl data. The server runs in UTC; the zone's own rules
 * give each instant its local time. Shared by the providers (Google Health's
 * civil times) and the device sync (readings given as local times), so it
 * lives outside both.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's local year … second of an instant, as Intl's two-digit parts (one formatter per zone). */
function wallClockParts(tz: string, t: number) {
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
  return Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
}

/** The zone's offset from UTC in minutes at an instant (e.g. -420 for Los Angeles in summer). */
export function offsetMinutesAt(tz: string, t: number): number {
  const at = Math.floor(t / 1000) * 1000;
  const p = wallClockParts(tz, at);
  const asUtc = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  return Math.round((asUtc - at) / 60_000);
}

/** The wall-clock time of an instant in the zone: 'YYYY-MM-DDTHH:mm:ss'. */
export function wallClock(tz: string, t: number): string {
  const p = wallClockParts(tz, t);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** Whether a string names a zone this runtime knows. */
export function isKnownZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
