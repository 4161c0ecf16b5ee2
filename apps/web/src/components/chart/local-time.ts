/*
 * Providers report the participant's local wall-clock dates and times (Fitbit:
 * '2026-03-08' and '02:30:00', no offset). Charts take real instants (unix
 * seconds) and draw them back in the participant's zone (uPlot's tzDate), so
 * a DST day has 23 or 25 hours on the axis and the tooltip shows the time the
 * participant saw.
 */

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in ms (positive east of Greenwich). */
export function zoneOffsetMs(instantMs: number, timeZone: string): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const { type, value } of f.formatToParts(new Date(instantMs))) p[type] = Number(value);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return asUtc - Math.floor(instantMs / 1000) * 1000;
}

/** Unix seconds of a local wall-clock time in `timeZone` (a time skipped by DST maps forward). */
export function localToUnix(date: string, time: string, timeZone: string): number {
  const [y, mo, d] = date.split('-').map(Number);
  const [h = 0, mi = 0, s = 0] = time.split(':').map(Number);
  const wall = Date.UTC(y!, mo! - 1, d!, h, mi, s);
  const first = wall - zoneOffsetMs(wall, timeZone);
  const second = wall - zoneOffsetMs(first, timeZone);
  return Math.round(second / 1000);
}

const secondsOf = (time: string) => {
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number);
  return h * 3600 + m * 60 + s;
};

/**
 * Many times of one local day → unix seconds. The zone's offset is looked up
 * twice (midnight and end of day); only a day on which it changes (DST) pays
 * for a lookup per point, so 86,400 one-second readings convert in a few ms.
 */
export function localTimesToUnix(date: string, times: readonly string[], timeZone: string): number[] {
  const start = localToUnix(date, '00:00:00', timeZone);
  const end = localToUnix(date, '23:59:59', timeZone);
  if (end - start === 86_399) return times.map((t) => start + secondsOf(t));
  return times.map((t) => localToUnix(date, t, timeZone));
}

/** Local midnight of each date (daily series: one bar per local day). */
export const localDaysToUnix = (dates: readonly string[], timeZone: string) =>
  dates.map((d) => localToUnix(d, '00:00:00', timeZone));

const labelFormatters = new Map<string, Intl.DateTimeFormat>();

/** Text of an x value for tooltips and summaries, in the participant's zone. */
export function formatInstant(ts: number, timeZone: string, granularity: 'days' | 'time'): string {
  const key = `${timeZone}|${granularity}`;
  let f = labelFormatters.get(key);
  if (!f) {
    f =
      granularity === 'days'
        ? new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
        : new Intl.DateTimeFormat('en-CA', {
            timeZone,
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
            hour: '2-digit',
            minute: '2-digit',
            second: '2-digit',
            hourCycle: 'h23',
            timeZoneName: 'short',
          });
    labelFormatters.set(key, f);
  }
  return f.format(new Date(ts * 1000));
}
