/*
 * One day's intraday series (providers.md §1.7.3): heart rate at 1-second or
 * 1-minute detail and steps per minute, optionally within a time window.
 * The answers' series carry each point's instant (`at`) beside the
 * participant's local date and time; the charts draw the instants in the
 * answer's time zone (a DST day has 23 or 25 hours).
 */
import { parseFitbitResourcePath, type Series } from '@trialwear/contract';

export type HeartDetail = '1sec' | '1min';

const windowPart = (startTime: string, endTime: string) =>
  startTime && endTime ? `/time/${startTime}/${endTime}` : '';

export function intradayPaths(date: string, detail: HeartDetail, startTime = '', endTime = '') {
  const w = windowPart(startTime, endTime);
  const paths = {
    heart: `/activities/heart/date/${date}/1d/${detail}${w}.json`,
    steps: `/activities/steps/date/${date}/1d/1min${w}.json`,
  };
  for (const p of Object.values(paths)) if (!parseFitbitResourcePath(p)) throw new Error(`Not allowed: ${p}`);
  return paths;
}

export interface IntradaySeries {
  /** Unix seconds of each point's instant. */
  x: number[];
  /** The point's value; null where the provider listed the time without one (a gap in the chart). */
  values: (number | null)[];
}

/**
 * The points of `metric` (`heart_rate_intraday`, `steps`) among an answer's series → instants and
 * values. x is the point's UTC instant (`at`), which the server derived from the local time in the
 * participant's zone: a DST day has 23 or 25 hours on the axis without any zone arithmetic here.
 */
export function readIntraday(series: readonly Series[], metric: string): IntradaySeries {
  // Every series of the metric: an intraday answer may also carry the day's total of the same
  // metric as a days-only series (Fitbit's steps intraday answer has both).
  const points = series.filter((s) => s.metric === metric).flatMap((s) => s.points ?? []);
  return {
    x: points.map((p) => Date.parse(p.at) / 1000),
    values: points.map((p) => p.value),
  };
}
