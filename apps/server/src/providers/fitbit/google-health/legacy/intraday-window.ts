/*
 * What the intraday answers share: the detail levels, the local day as
 * physical instants, and the optional time window of a path.
 */

import { addDays, startOfLocalDay } from '@trialwear/zone';

export const DETAIL_SECONDS: Record<string, number> = { '1min': 60, '5min': 300, '15min': 900 };
/** The local day as physical instants [start, end) in the zone (1380 or 1500 minutes on DST days). */
export function dayRange(zone: string, date: string) {
  return { start: startOfLocalDay(zone, date), end: startOfLocalDay(zone, addDays(date, 1)) };
}

/** The optional HH:mm–HH:mm window of an intraday path (both ends included, as legacy Fitbit). */
export function timeWindow(path: string): ((time: string) => boolean) | null {
  const m = /\/time\/(\d{2}:\d{2})\/(\d{2}:\d{2})\.json$/.exec(path);
  if (!m) return null;
  const [from, to] = [`${m[1]}:00`, `${m[2]}:59`];
  return (t) => t >= from && t <= to;
}
