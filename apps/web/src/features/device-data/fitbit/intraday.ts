/*
 * One day's intraday series (providers.md §1.7.3): heart rate at 1-second or
 * 1-minute detail and steps per minute, optionally within a time window.
 * Times are the participant's local wall clock; they become instants with
 * the answer's time zone (a DST day has 23 or 25 hours).
 */
import { parseFitbitResourcePath } from '@trialwear/contract';
import { localTimesToUnix } from '../../../components/chart';

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
  x: number[];
  values: number[];
}

/** `{"activities-heart-intraday":{"dataset":[{"time":"08:00:00","value":71}]}}` → instants and values. */
export function readIntraday(data: unknown, key: string, date: string, timeZone: string): IntradaySeries {
  const set = ((data as Record<string, { dataset?: unknown }> | null)?.[key]?.dataset ?? []) as Array<{
    time: string;
    value: number;
  }>;
  return {
    x: localTimesToUnix(
      date,
      set.map((d) => d.time),
      timeZone,
    ),
    values: set.map((d) => Number(d.value)),
  };
}
