/*
 * Providers report the participant's local wall-clock dates and times (Fitbit:
 * '2026-03-08' and '02:30:00', no offset). Charts take real instants (unix
 * seconds) and draw them back in the participant's zone (uPlot's tzDate), so
 * a DST day has 23 or 25 hours on the axis and the tooltip shows the time the
 * participant saw. The zone arithmetic is @trialwear/zone's; this file turns
 * it into the chart's seconds and formats x values for people.
 */

import { instantOfLocal, instantsOfLocalTimes, startOfLocalDay } from '@trialwear/zone';

/** Unix seconds of a local wall-clock time in `timeZone` (gap and fold: @trialwear/zone's `instantOfLocal`). */
export const localToUnix = (date: string, time: string, timeZone: string): number =>
  Math.round(instantOfLocal(timeZone, `${date}T${time}`) / 1000);

/**
 * Many times of one local day → unix seconds. The zone's offset is looked up
 * twice (midnight and end of day); only a day on which it changes (DST) pays
 * for a lookup per point, so 86,400 one-second readings convert in a few ms.
 */
export const localTimesToUnix = (date: string, times: readonly string[], timeZone: string): number[] =>
  instantsOfLocalTimes(timeZone, date, times).map((t) => Math.round(t / 1000));

/** The first instant of each local date (daily series: one bar per local day, on that day even when DST skips its midnight). */
export const localDaysToUnix = (dates: readonly string[], timeZone: string) =>
  dates.map((d) => Math.round(startOfLocalDay(timeZone, d) / 1000));

const labelFormatters = new Map<string, Intl.DateTimeFormat>();

/** Text of an x value for tooltips and summaries, in the participant's zone (display only). */
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
