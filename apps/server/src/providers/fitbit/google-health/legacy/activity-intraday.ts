/*
 * `/activities/{resource}/date/{date}/1d/{detail}`: a day's minutes (or 5
 * or 15 minutes) from physical-window roll-ups, every window of the local
 * day listed.
 */

import type { FitbitResource } from '@trialwear/contract';
import { wallClock } from '@trialwear/zone';
import { num } from '../civil-time.js';
import type { GoogleHealthCalls } from '../google-http.js';
import { camel, type Json, obj, round, userZone } from './google-payloads.js';
import { DETAIL_SECONDS, dayRange, timeWindow } from './intraday-window.js';

const INTRADAY_TYPE: Record<string, { type: string; value: (p: Json) => number | null; places: number }> = {
  steps: { type: 'steps', value: (p) => num(p.countSum), places: 0 },
  distance: { type: 'distance', value: (p) => (num(p.millimetersSum) ?? 0) / 1e6, places: 6 },
  floors: { type: 'floors', value: (p) => num(p.countSum), places: 0 },
  elevation: { type: 'altitude', value: (p) => (num(p.gainMillimetersSum) ?? 0) / 1000, places: 3 },
  calories: { type: 'total-calories', value: (p) => num(p.kcalSum), places: 2 },
};

export async function activityIntraday(calls: GoogleHealthCalls, path: string, r: FitbitResource) {
  const m = /^\/activities\/(\w+)\/date\/[\d-]+\/1d\/(\w+)/.exec(path)!;
  const resource = m[1]!;
  const spec = INTRADAY_TYPE[resource]!;
  const seconds = DETAIL_SECONDS[m[2]!]!;
  const { zone } = await userZone(calls);
  const { start, end } = dayRange(zone, r.start!);
  const points = await calls.rollUp(
    spec.type,
    new Date(start).toISOString(),
    new Date(end).toISOString(),
    seconds,
  );
  const key = camel(spec.type);
  const byStart = new Map<number, number>();
  for (const p of points) {
    if (p[key] === undefined) continue;
    const v = spec.value(obj(p[key]));
    if (v !== null) byStart.set(Date.parse(String(p.startTime)), v);
  }
  // Every window of the day, 0 where nothing was recorded (legacy lists every minute); a wall-clock
  // time repeated when clocks go back is listed once, with both windows' sum.
  const byTime = new Map<string, number>();
  for (let t = start; t < end; t += seconds * 1000) {
    const time = wallClock(zone, t).slice(11, 19);
    byTime.set(time, (byTime.get(time) ?? 0) + (byStart.get(t) ?? 0));
  }
  const inWindow = timeWindow(path);
  const dataset = [...byTime]
    .sort(([a], [b]) => a.localeCompare(b))
    .filter(([time]) => !inWindow || inWindow(time))
    .map(([time, v]) => ({ time, value: round(v, spec.places) }));
  const total = [...byTime.values()].reduce((a, b) => a + b, 0);
  const dayPlaces = resource === 'calories' ? 0 : spec.places;
  return {
    [`activities-${resource}`]: [{ dateTime: r.start, value: String(round(total, dayPlaces)) }],
    [`activities-${resource}-intraday`]: {
      dataset,
      datasetInterval: seconds / 60,
      datasetType: 'minute',
    },
  };
}
