/*
 * A type's points of one local date, memoized, and the instants filters
 * compare them by.
 */
import { onDeviceStateChange } from '../../fitbit/fitbit-device-state.js';
import type { GoogleHealthConfig } from '../gh-config.js';
import { localAt } from '../gh-json.js';
import { type Person, zoneOfDate } from '../person.js';
import { MEMBER_SINCE } from './legacy-day.js';
import type { DataTypeSpec, Pt } from './spec.js';

const pointMemo = new Map<string, Pt[]>();
/** Points held by the memo: a day of heart rate is ~10,000, so the memo is bounded by points, not days. */
let memoPoints = 0;
const MEMO_MAX_POINTS = 1_000_000;
// The control API's wear, battery and sync stop change the legacy days the points are made from.
onDeviceStateChange(() => {
  pointMemo.clear();
  memoPoints = 0;
});
/** A type's points of one local date for a person, newest first. */
export function pointsOfDate(
  spec: DataTypeSpec,
  person: Person,
  date: string,
  config: GoogleHealthConfig,
): Pt[] {
  if (date < MEMBER_SINCE) return [];
  const tz = zoneOfDate(person, date);
  const key = `${spec.id}:${person.dataUserId}:${date}:${tz}:${config.phoneSteps}:${config.spo2SentinelSamples}`;
  const hit = pointMemo.get(key);
  if (hit) return hit;
  const pts = spec
    .points({ person, date, tz, config })
    .sort((a, b) => b.t - a.t || (a.source === 'tracker' ? -1 : 1));
  if (memoPoints + pts.length > MEMO_MAX_POINTS || pointMemo.size > 5000) {
    pointMemo.clear();
    memoPoints = 0;
  }
  pointMemo.set(key, pts);
  memoPoints += pts.length;
  return pts;
}

/** The instant a filter's physical member compares (interval start, sleep end, sample time). */
export const physicalOf = (spec: DataTypeSpec, p: Pt) => (spec.id === 'sleep' ? p.end! : p.t);
/** The local wall-clock time a civil member compares, `YYYY-MM-DDTHH:mm:ss`. */
export const civilOf = (spec: DataTypeSpec, p: Pt) => {
  p.civil ??= localAt(p.tz, physicalOf(spec, p));
  return p.civil;
};
