/*
 * The recorded calls of a Google Health answer (the reader's body: every
 * call Google answered, in order) and what the family mappers share: the
 * context of one tracker path, a point at an instant, the daily values by
 * civil date and a day's windows by wall-clock time. Pure: no call, no clock.
 */
import type { FitbitResource, Series, SeriesDay, SeriesPoint } from '@trialwear/contract';
import { offsetMinutesAt, wallClock } from '@trialwear/zone';
import { dateText, durationSeconds, type GoogleDate } from '../civil-time.js';
import type { GoogleCall, GoogleSettings } from '../google-http.js';
import { camel, type Json, list, obj, zoneOfSettings } from '../payloads.js';

/** The reader's answer body for a tracker path: every call Google answered, in order. */
export interface GoogleTrackerBody {
  calls: GoogleCall[];
}

// ------------------------------------------------------------ the calls of an answer

/** What a recorded call was: its method on which data type. */
function callKind(request: string): { method: 'list' | 'rollUp' | 'dailyRollUp' | 'other'; type: string } {
  const m =
    /^(GET|POST) \/v4\/users\/me\/dataTypes\/([a-z0-9-]+)\/dataPoints(:rollUp|:dailyRollUp)?(?:\?|$)/.exec(
      request,
    );
  if (!m) return { method: 'other', type: '' };
  return {
    method: m[3] === ':rollUp' ? 'rollUp' : m[3] === ':dailyRollUp' ? 'dailyRollUp' : 'list',
    type: m[2]!,
  };
}

export class Answered {
  constructor(readonly calls: readonly GoogleCall[]) {}

  private of(method: string, type: string) {
    return this.calls.filter((c) => {
      const k = callKind(c.request);
      return k.method === method && k.type === type;
    });
  }

  has(method: 'list' | 'rollUp' | 'dailyRollUp', type: string) {
    return this.of(method, type).length > 0;
  }

  /** A list's points, every page in order (newest first, as Google orders them). */
  listed(type: string): Json[] {
    return this.of('list', type).flatMap((c) => list(obj(c.body).dataPoints));
  }

  /** Roll-up points (civil days or physical windows), every chunk or page in order. */
  rolled(method: 'rollUp' | 'dailyRollUp', type: string): Json[] {
    return this.of(method, type).flatMap((c) => list(obj(c.body).rollupDataPoints));
  }

  /** The physical range [start, end) and window of the first rollUp of a type. */
  rollUpRange(type: string): { start: number; end: number; seconds: number } | null {
    const sent = obj(this.of('rollUp', type)[0]?.sent);
    const range = obj(sent.range);
    const start = Date.parse(String(range.startTime));
    const end = Date.parse(String(range.endTime));
    const seconds = durationSeconds(sent.windowSize);
    return Number.isFinite(start) && Number.isFinite(end) && seconds ? { start, end, seconds } : null;
  }

  /** The zone of the settings read with the data (the zone the local day's instants were taken in). */
  settingsZone(): string | null {
    const c = this.calls.find((x) => x.request === 'GET /v4/users/me/settings');
    return c ? zoneOfSettings(c.body as GoogleSettings) : null;
  }
}

// ------------------------------------------------------------ daily values

/** A civil-day roll-up's date. */
export const rollupDate = (p: Json) => dateText(obj(p.civilStartTime).date as GoogleDate | undefined);

/** A day's total of one roll-up payload field per civil date (no union key: no data that day, §3.5). */
export function dailySums(
  a: Answered,
  type: string,
  value: (payload: Json) => number | null,
): Map<string, number> {
  const key = camel(type);
  const out = new Map<string, number>();
  for (const p of a.rolled('dailyRollUp', type)) {
    const date = rollupDate(p);
    if (!date || p[key] === undefined) continue;
    const v = value(obj(p[key]));
    if (v !== null) out.set(date, (out.get(date) ?? 0) + v);
  }
  return out;
}

/** A daily type's payloads by civil date within start..end (the first point of a date wins: newest first). */
export function dailyPayloads(a: Answered, type: string, start: string, end: string): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const p of a.listed(type)) {
    const payload = obj(p[camel(type)]);
    const date = dateText(payload.date as GoogleDate | undefined);
    if (date && date >= start && date <= end && !out.has(date)) out.set(date, payload);
  }
  return out;
}

// ------------------------------------------------------------ a path's context, points and windows

/** -0 (a rounded negative zero) as 0. */
export const plain = (v: number) => (v === 0 ? 0 : v);

export interface Ctx {
  a: Answered;
  r: FitbitResource;
  path: string;
  start: string;
  end: string;
  /** The zone local times are read in: the settings read with the data, else the participant's, else UTC. */
  zone: string;
  series(metric: string, unit: string, values: { days: SeriesDay[] } | { points: SeriesPoint[] }): Series;
}

/** A point at an instant: its local date and time and offset in the zone. */
export function pointAt(
  zone: string,
  t: number,
  value: number | null,
  extra: Partial<SeriesPoint> = {},
): SeriesPoint {
  const local = wallClock(zone, t);
  return {
    at: new Date(t).toISOString(),
    date: local.slice(0, 10),
    time: local.slice(11, 19),
    offsetMinutes: offsetMinutesAt(zone, t),
    value,
    ...extra,
  };
}

/** The optional HH:mm–HH:mm window of an intraday path (both ends included, as legacy Fitbit). */
export function timeWindow(path: string): ((time: string) => boolean) | null {
  const m = /\/time\/(\d{2}:\d{2})\/(\d{2}:\d{2})\.json$/.exec(path);
  if (!m) return null;
  const [from, to] = [`${m[1]}:00`, `${m[2]}:59`];
  return (t) => t >= from && t <= to;
}

/**
 * The day's windows of a rollUp by wall-clock time, in time order: each
 * time's first instant and the values of its windows (two when clocks go back).
 */
export function windowsByTime(c: Ctx, type: string, value: (payload: Json) => number | null, every: boolean) {
  const range = c.a.rollUpRange(type);
  const key = camel(type);
  const byStart = new Map<number, number>();
  for (const p of c.a.rolled('rollUp', type)) {
    if (p[key] === undefined) continue; // no data in this window (§3.5)
    const v = value(obj(p[key]));
    if (v !== null) byStart.set(Date.parse(String(p.startTime)), v);
  }
  const byTime = new Map<string, { t: number; values: number[] }>();
  const add = (t: number, v: number | undefined) => {
    const time = wallClock(c.zone, t).slice(11, 19);
    const e = byTime.get(time) ?? { t, values: [] };
    if (v !== undefined) e.values.push(v);
    byTime.set(time, e);
  };
  if (every && range)
    for (let t = range.start; t < range.end; t += range.seconds * 1000) add(t, byStart.get(t) ?? 0);
  else for (const [t, v] of [...byStart].sort(([x], [y]) => x - y)) add(t, v);
  const inWindow = timeWindow(c.path);
  return [...byTime]
    .filter(([time, e]) => e.values.length > 0 && (!inWindow || inWindow(time)))
    .sort(([x], [y]) => x.localeCompare(y));
}
