/*
 * The one-day page's intraday reads from the store (issue #24 item 3): a
 * 1-minute heart-rate or steps read (or a whole day of 1-second heart rate,
 * for a team that stores it) of a day the background sync has stored whole
 * is answered from intraday_days, without a provider call; any other (a
 * window of 1-second samples, 5/15-minute detail, a metric or day not
 * stored, the day the sync is still on) goes to the provider as before.
 *
 * A day is whole when the link's sync has moved past it (its cursor is a
 * later date): the sync re-reads its cursor's day each run, so the day was
 * last read after it ended. The answer is the series the provider module
 * would give for the same path — the same metric, unit, local dates, times
 * and offsets, the window's minutes only (both ends included) — with
 * `source.stored` saying when its minutes were fetched.
 */
import type { Series, SeriesPoint } from '@trialwear/contract';
import type { Db } from '../../db/database.js';
import { type StoredIntradayDay, storedIntradayDay } from '../readings/repo.js';
import type { DataLink } from './repo.js';

const PATH =
  /^\/activities\/(heart|steps)\/date\/(\d{4}-\d{2}-\d{2})\/1d\/(1min|1sec)(?:\/time\/(\d{2}:\d{2})\/(\d{2}:\d{2}))?\.json$/;

/** What each stored path reads: the stored metric, and the series the provider module answers with. */
const STORED: Record<string, { metricKey: string; metric: string; unit: string }> = {
  'heart 1min': { metricKey: 'heart_rate_intraday', metric: 'heart_rate_intraday', unit: 'bpm' },
  'steps 1min': { metricKey: 'steps_intraday', metric: 'steps', unit: 'steps' },
  // A whole day only: a window of 1-second samples is read live.
  'heart 1sec': { metricKey: 'heart_rate_1sec', metric: 'heart_rate_intraday', unit: 'bpm' },
};

export interface StoredIntradayRead {
  metricKey: string;
  metric: string;
  unit: string;
  date: string;
  window: [string, string] | null;
}

/** The stored read a tracker path asks for, or null when the path is not one the store answers. */
export function storedIntradayRead(path: string): StoredIntradayRead | null {
  const m = PATH.exec(path);
  const what = m && STORED[`${m[1]} ${m[3]}`];
  if (!m || !what) return null;
  const window: [string, string] | null = m[4] && m[5] ? [m[4], m[5]] : null;
  if (window && m[3] === '1sec') return null;
  return { ...what, date: m[2]!, window };
}

/** The stored day as the provider module's series, or null when the day is not stored whole. */
export async function storedIntradaySeries(
  db: Db,
  link: DataLink,
  participantId: number,
  read: StoredIntradayRead,
  timeZone: string,
): Promise<Series | null> {
  const day = await storedIntradayDay(db, {
    participantId,
    deviceId: link.id,
    metricKey: read.metricKey,
    date: read.date,
  });
  if (!day || !day.cursor_date || day.cursor_date <= read.date) return null;
  return {
    metric: read.metric,
    unit: read.unit,
    timeZone,
    points: dayPoints(day, read),
    source: {
      provider: link.provider,
      requests: [],
      stored: { syncedAt: (day.fetched_at ?? day.start_at).toISOString() },
    },
  };
}

/** The day's samples as points at their instants, local times and offsets; a window keeps its minutes. */
export function dayPoints(
  day: StoredIntradayDay,
  read: Pick<StoredIntradayRead, 'date' | 'window'>,
): SeriesPoint[] {
  const start = day.start_at.getTime();
  const shifts = day.offset_shifts ?? [];
  let offset = day.utc_offset_minutes;
  let next = 0; // the next shift (index into the [index, offset] pairs)
  const points: SeriesPoint[] = [];
  const [from, to] = read.window ? [`${read.window[0]}:00`, `${read.window[1]}:00`] : ['', '99'];
  day.samples.forEach((value, i) => {
    while (next < shifts.length && shifts[next]! <= i) {
      offset = shifts[next + 1]!;
      next += 2;
    }
    if (value === null) return;
    const at = start + i * day.step_seconds * 1000;
    const time = new Date(at + offset * 60_000).toISOString().slice(11, 19);
    if (time < from || time > to) return;
    points.push({ at: new Date(at).toISOString(), date: read.date, time, offsetMinutes: offset, value });
  });
  return points;
}
