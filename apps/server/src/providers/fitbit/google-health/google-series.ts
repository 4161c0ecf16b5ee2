/*
 * The Google Health reader's answers as normalized series (decision 030):
 * Google's data points and roll-ups, as `read` received them, mapped
 * directly to the portal's metrics. Pure: no call, no clock.
 *
 * Rules (google-health-api.md §6): daily totals from the dailyRollUp
 * points, summed per Google's civil date (never by physical time); daily
 * types (resting heart rate, SpO2, HRV, …) one per civil date, the first
 * point of a date (newest first) winning; int64 strings parsed; SI units to
 * the portal's (mm → km or m, g → kg, Duration → minutes). An activity or
 * food series lists every day of the range, 0 where Google has no data (the
 * Fitbit app's convention, and legacy Fitbit's: a day without activity-level
 * data counts 1440 sedentary minutes); a heart or body series lists every
 * day, null without a value; the daily health metrics list the days Google
 * has. A day's windows (intraday) list every window of the local day, 0 (or
 * for heart rate, nothing) where Google has none; a wall-clock time repeated
 * when clocks go back is one point (at its first instant) with both windows'
 * sum (heart rate: their mean). Heart-rate samples (1sec), sleeps and
 * weighings keep Google's own instants and offsets (the legacy shape had
 * local times only: a time repeated when clocks go back was its first).
 *
 * Known gaps of the Google Health API (decision 022): no heart-rate zones
 * (Google's zone model has no 1:1 map); SpO2 is the average only (Google's
 * bounds are confidence bounds, not the night's min/max); the cardio score
 * is one number (VO2 max), not the legacy range; no sleep stage averages
 * over 30 days; the activity log list, the sleep list and a day's food log
 * are refused (400 'unsupported').
 */
import {
  type FitbitResource,
  parseFitbitResourcePath,
  type Series,
  type SeriesDay,
  type SeriesPoint,
} from '@trialwear/contract';
import { datesBetween, offsetMinutesAt, wallClock } from '@trialwear/zone';
import type { DataQuery, ProviderAnswer, SeriesSet } from '../../types.js';
import { ACTIVITY_METRICS, BODY_METRICS, FOOD_METRICS, series } from '../series-kit.js';
import {
  type CivilDateTime,
  civilText,
  dateText,
  durationSeconds,
  type GoogleDate,
  num,
} from './civil-time.js';
import type { GoogleCall, GoogleSettings } from './google-http.js';
import { DAILY_TYPE, INTRADAY_TYPE } from './google-reads.js';
import { camel, type Json, list, localOf, obj, round, zoneOfSettings } from './payloads.js';

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

class Answered {
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
const rollupDate = (p: Json) => dateText(obj(p.civilStartTime).date as GoogleDate | undefined);

/** A day's total of one roll-up payload field per civil date (no union key: no data that day, §3.5). */
function dailySums(a: Answered, type: string, value: (payload: Json) => number | null): Map<string, number> {
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
function dailyPayloads(a: Answered, type: string, start: string, end: string): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const p of a.listed(type)) {
    const payload = obj(p[camel(type)]);
    const date = dateText(payload.date as GoogleDate | undefined);
    if (date && date >= start && date <= end && !out.has(date)) out.set(date, payload);
  }
  return out;
}

const LEVEL_OF: Record<string, string> = {
  minutesSedentary: 'SEDENTARY',
  minutesLightlyActive: 'LIGHTLY_ACTIVE',
  minutesFairlyActive: 'MODERATELY_ACTIVE',
  minutesVeryActive: 'VERY_ACTIVE',
};

/** Minutes per activity level per civil day (the list's intervals when the read fell back to it). */
function activityLevels(a: Answered): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  const add = (date: string, level: string, minutes: number) => {
    const day = out.get(date) ?? new Map<string, number>();
    day.set(level, (day.get(level) ?? 0) + minutes);
    out.set(date, day);
  };
  if (a.has('list', 'activity-level')) {
    for (const p of a.listed('activity-level')) {
      const l = obj(p.activityLevel);
      const i = obj(l.interval);
      const date = dateText(obj(i.civilStartTime).date as GoogleDate | undefined);
      const seconds = (Date.parse(String(i.endTime)) - Date.parse(String(i.startTime))) / 1000;
      if (date && Number.isFinite(seconds)) add(date, String(l.activityLevelType), seconds / 60);
    }
    return out;
  }
  for (const p of a.rolled('dailyRollUp', 'activity-level')) {
    const date = rollupDate(p);
    if (!date || p.activityLevel === undefined) continue;
    for (const r of list(obj(p.activityLevel).activityLevelRollupsByActivityLevelType))
      add(date, String(r.activityLevelType), (durationSeconds(r.totalDuration) ?? 0) / 60);
    if (!out.has(date)) out.set(date, new Map());
  }
  return out;
}

const rounded = (m: Map<string, number>) => new Map([...m].map(([d, v]) => [d, Math.round(v)]));

/** An activity resource's values per civil date (dates without data absent, except the minutes: every date). */
function activityDaily(a: Answered, resource: string, start: string, end: string): Map<string, number> {
  switch (resource) {
    case 'steps':
    case 'floors':
      return dailySums(a, resource, (p) => num(p.countSum));
    case 'distance':
      return new Map(
        [...dailySums(a, 'distance', (p) => num(p.millimetersSum))].map(([d, v]) => [d, round(v / 1e6, 6)]),
      );
    case 'elevation':
      // Metres with two decimals, as the legacy API gave them.
      return new Map(
        [...dailySums(a, 'altitude', (p) => num(p.gainMillimetersSum))].map(([d, v]) => [
          d,
          round(v / 1000, 2),
        ]),
      );
    case 'calories':
      return rounded(dailySums(a, 'total-calories', (p) => num(p.kcalSum)));
    case 'activityCalories':
      return rounded(dailySums(a, 'active-energy-burned', (p) => num(p.kcalSum)));
    case 'caloriesBMR': {
      // The basal part of the day's burn: total − active (basal-energy-burned has no roll-up).
      const active = activityDaily(a, 'activityCalories', start, end);
      return new Map(
        [...activityDaily(a, 'calories', start, end)].map(([d, v]) => [d, v - (active.get(d) ?? 0)]),
      );
    }
    default: {
      // A day without activity-level data: sedentary all day, as legacy Fitbit counted it.
      const levels = activityLevels(a);
      const level = LEVEL_OF[resource]!;
      return new Map(
        datesBetween(start, end, 4000).map((d) => {
          const day = levels.get(d);
          return [d, day ? Math.round(day.get(level) ?? 0) : level === 'SEDENTARY' ? 1440 : 0] as const;
        }),
      );
    }
  }
}

// ------------------------------------------------------------ series

/** -0 (a rounded negative zero) as 0. */
const plain = (v: number) => (v === 0 ? 0 : v);

interface Ctx {
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
function pointAt(
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

function activitySeries(c: Ctx): Series[] {
  const resource = /^\/activities\/(?:tracker\/)?(\w+)\/date\//.exec(c.path)![1]!;
  const { metric, unit } = ACTIVITY_METRICS[resource]!;
  const values = activityDaily(c.a, resource, c.start, c.end);
  return [
    c.series(metric, unit, {
      days: datesBetween(c.start, c.end, 4000).map((date) => ({ date, value: plain(values.get(date) ?? 0) })),
    }),
  ];
}

/** `/activities/date/{d}.json`: the day's steps, total distance, floors, calories and minutes per level. */
function activityDay(c: Ctx): Series[] {
  const d = c.start;
  const v = (resource: string) => plain(activityDaily(c.a, resource, d, d).get(d) ?? 0);
  return ['steps', 'distance', 'floors', 'calories', ...Object.keys(LEVEL_OF)].map((resource) => {
    const { metric, unit } = ACTIVITY_METRICS[resource]!;
    return c.series(metric, unit, { days: [{ date: d, value: v(resource) }] });
  });
}

const INTRADAY_VALUE: Record<string, { value: (p: Json) => number | null; places: number }> = {
  steps: { value: (p) => num(p.countSum), places: 0 },
  distance: { value: (p) => (num(p.millimetersSum) ?? 0) / 1e6, places: 6 },
  floors: { value: (p) => num(p.countSum), places: 0 },
  elevation: { value: (p) => (num(p.gainMillimetersSum) ?? 0) / 1000, places: 3 },
  calories: { value: (p) => num(p.kcalSum), places: 2 },
};

/** The optional HH:mm–HH:mm window of an intraday path (both ends included, as legacy Fitbit). */
function timeWindow(path: string): ((time: string) => boolean) | null {
  const m = /\/time\/(\d{2}:\d{2})\/(\d{2}:\d{2})\.json$/.exec(path);
  if (!m) return null;
  const [from, to] = [`${m[1]}:00`, `${m[2]}:59`];
  return (t) => t >= from && t <= to;
}

/**
 * The day's windows of a rollUp by wall-clock time, in time order: each
 * time's first instant and the values of its windows (two when clocks go back).
 */
function windowsByTime(c: Ctx, type: string, value: (payload: Json) => number | null, every: boolean) {
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

/** `/activities/{r}/date/{d}/1d/{detail}`: every window of the local day, 0 where Google has none. */
function activityIntraday(c: Ctx): Series[] {
  const resource = /^\/activities\/(\w+)\/date\//.exec(c.path)![1]!;
  const spec = INTRADAY_VALUE[resource]!;
  const { metric, unit } = ACTIVITY_METRICS[resource]!;
  const windows = windowsByTime(c, INTRADAY_TYPE[resource]!, spec.value, true);
  return [
    c.series(metric, unit, {
      points: windows.map(([, e]) =>
        pointAt(
          c.zone,
          e.t,
          plain(
            round(
              e.values.reduce((x, y) => x + y, 0),
              spec.places,
            ),
          ),
        ),
      ),
    }),
  ];
}

/** Resting heart rate per civil date. */
function restingHeartRates(a: Answered, start: string, end: string) {
  const out = new Map<string, number>();
  for (const [d, p] of dailyPayloads(a, DAILY_TYPE['heart-series']!, start, end)) {
    const v = num(p.beatsPerMinute);
    if (v !== null) out.set(d, v);
  }
  return out;
}

function heartSeries(c: Ctx): Series[] {
  const rhr = restingHeartRates(c.a, c.start, c.end);
  return [
    c.series('resting_heart_rate', 'bpm', {
      days: datesBetween(c.start, c.end, 4000).map((date) => ({ date, value: rhr.get(date) ?? null })),
    }),
  ];
}

/** A day's heart rate: 1sec from the samples (each at its own instant), else the windows' averages. */
function heartIntraday(c: Ctx): Series[] {
  let points: SeriesPoint[];
  if (c.a.has('list', 'heart-rate')) {
    points = c.a
      .listed('heart-rate')
      .map((p) => {
        const h = obj(p.heartRate);
        const st = obj(h.sampleTime);
        const t = Date.parse(String(st.physicalTime));
        return {
          t,
          civil: civilText(st.civilTime as CivilDateTime | undefined),
          value: num(h.beatsPerMinute),
        };
      })
      .filter(
        (x): x is { t: number; civil: string | null; value: number } =>
          x.value !== null && Number.isFinite(x.t),
      )
      .sort((x, y) => x.t - y.t)
      .map(({ t, civil, value }) => {
        const p = pointAt(c.zone, t, value);
        return civil ? { ...p, time: civil.slice(11, 19) } : p;
      });
    const inWindow = timeWindow(c.path);
    if (inWindow) points = points.filter((p) => inWindow(p.time));
  } else {
    points = windowsByTime(c, 'heart-rate', (p) => num(p.beatsPerMinuteAvg), false).map(([, e]) =>
      pointAt(c.zone, e.t, Math.round(e.values.reduce((x, y) => x + y, 0) / e.values.length)),
    );
  }
  return [c.series('heart_rate_intraday', 'bpm', { points })];
}

// ------------------------------------------------------------ sleep

const MAIN_STAGES = ['deep', 'light', 'rem', 'wake'] as const;

interface Sleep {
  t: number;
  start: string;
  end: string;
  offsetSeconds: number | null;
  dateOfSleep: string;
  logId: number | string;
  isMainSleep: boolean;
  duration: number;
  minutesAsleep: number;
  stages: Record<string, number>;
  classic: boolean;
}

function sleepOf(p: Json): Sleep | null {
  const s = obj(p.sleep);
  const i = obj(s.interval);
  const end = civilText(i.civilEndTime as CivilDateTime | undefined) ?? localOf(i.endTime, i.endUtcOffset);
  const start =
    civilText(i.civilStartTime as CivilDateTime | undefined) ?? localOf(i.startTime, i.startUtcOffset);
  if (!start || !end) return null;
  const classic = s.type === 'CLASSIC';
  const summary = obj(s.summary);
  const level = (t: unknown) => (t === 'AWAKE' ? (classic ? 'awake' : 'wake') : String(t).toLowerCase());
  const name = typeof p.name === 'string' ? p.name.split('/').pop()! : '';
  const started = Date.parse(String(i.startTime));
  return {
    t: started,
    start,
    end,
    offsetSeconds: durationSeconds(i.startUtcOffset),
    dateOfSleep: end.slice(0, 10),
    logId: /^\d+$/.test(name) ? Number(name) : name || started,
    isMainSleep: obj(s.metadata).mainSleep === true,
    duration: Date.parse(String(i.endTime)) - started,
    minutesAsleep: num(summary.minutesAsleep) ?? 0,
    stages: Object.fromEntries(list(summary.stagesSummary).map((x) => [level(x.type), num(x.minutes) ?? 0])),
    classic,
  };
}

/**
 * `/sleep/date/{s}/{e}`: one point per sleep at its start, dated by the day
 * it ended (legacy dateOfSleep): `sleep_duration` (minutes asleep) and
 * `sleep_stages` (the stage minutes in `detail`).
 */
function sleepRange(c: Ctx): Series[] {
  const points = c.a.listed('sleep');
  const sleeps = points
    .map(sleepOf)
    .filter((s): s is Sleep => s !== null && s.dateOfSleep >= c.start && s.dateOfSleep <= c.end);
  // No main-sleep flag (an early API version): the longest sleep of each date is the main one (§3.10).
  if (!points.some((p) => typeof obj(obj(p.sleep).metadata).mainSleep === 'boolean'))
    for (const date of new Set(sleeps.map((s) => s.dateOfSleep)))
      sleeps
        .filter((s) => s.dateOfSleep === date)
        .sort((x, y) => y.duration - x.duration)[0]!.isMainSleep = true;
  sleeps.sort((x, y) => x.start.localeCompare(y.start));
  const at = (s: Sleep, value: number | null, detail: Json): SeriesPoint => ({
    at: new Date(s.t).toISOString(),
    date: s.dateOfSleep,
    time: s.start.slice(11, 19),
    offsetMinutes: s.offsetSeconds === null ? offsetMinutesAt(c.zone, s.t) : Math.round(s.offsetSeconds / 60),
    value,
    detail,
  });
  const base = (s: Sleep) => ({
    logId: s.logId,
    isMainSleep: s.isMainSleep,
    startTime: `${s.start}.000`,
    endTime: `${s.end}.000`,
  });
  return [
    c.series('sleep_duration', 'min', { points: sleeps.map((s) => at(s, s.minutesAsleep, base(s))) }),
    c.series('sleep_stages', 'min', {
      points: sleeps.map((s) =>
        at(s, null, { ...base(s), ...Object.fromEntries(MAIN_STAGES.map((k) => [k, s.stages[k] ?? null])) }),
      ),
    }),
  ];
}

// ------------------------------------------------------------ body

interface Weighing {
  t: number;
  offsetSeconds: number | null;
  date: string;
  time: string;
  kg: number;
  fat: number | null;
  bmi: number | null;
  logId: number | string;
  source: string;
}

/** The local date and time of a sample (civil time; else the instant shifted by its offset). */
const sampleLocal = (payload: Json): string | null => {
  const st = obj(payload.sampleTime);
  return civilText(st.civilTime as CivilDateTime | undefined) ?? localOf(st.physicalTime, st.utcOffset);
};

/** The weighings in local time order, each with the body fat of its time (else its date) and the BMI. */
function weighings(a: Answered): Weighing[] {
  const fats = new Map<string, number>();
  const fatByDate = new Map<string, number>();
  for (const p of a.listed('body-fat')) {
    const b = obj(p.bodyFat);
    const at = sampleLocal(b);
    const pct = num(b.percentage);
    if (!at || pct === null) continue;
    if (!fats.has(at)) fats.set(at, pct);
    if (!fatByDate.has(at.slice(0, 10))) fatByDate.set(at.slice(0, 10), pct);
  }
  // BMI is not in the API: weight over the square of the latest height (§6 row 12).
  const mm = num(obj(a.listed('height')[0]?.height).heightMillimeters);
  const out: Weighing[] = [];
  for (const p of a.listed('weight')) {
    const w = obj(p.weight);
    const at = sampleLocal(w);
    const g = num(w.weightGrams);
    if (!at || g === null) continue;
    const kg = round(g / 1000, 3);
    const fat = fats.get(at) ?? fatByDate.get(at.slice(0, 10)) ?? null;
    const st = obj(w.sampleTime);
    const t = Date.parse(String(st.physicalTime));
    const name = typeof p.name === 'string' ? p.name.split('/').pop()! : '';
    const source = obj(p.dataSource);
    out.push({
      t,
      offsetSeconds: durationSeconds(st.utcOffset),
      date: at.slice(0, 10),
      time: at.slice(11, 19),
      kg,
      fat: fat === null ? null : round(fat, 3),
      bmi: mm ? round(kg / (mm / 1000) ** 2, 2) : null,
      logId: /^\d+$/.test(name) ? Number(name) : name || t,
      source:
        (obj(source.device).displayName as string | undefined) ??
        (source.recordingMethod === 'MANUAL' ? 'Web' : 'API'),
    });
  }
  return out.sort((x, y) => `${x.date}T${x.time}`.localeCompare(`${y.date}T${y.time}`));
}

/** A weighing's value of each body resource. */
const BODY_VALUE: Record<string, (w: Weighing) => number | null> = {
  weight: (w) => w.kg,
  fat: (w) => w.fat,
  bmi: (w) => w.bmi,
};

/** `/body/{weight,fat,bmi}/date/…`: every day of the range, the day's last weighing, null without one. */
function bodySeries(c: Ctx): Series[] {
  const resource = /^\/body\/(\w+)\//.exec(c.path)![1]!;
  const { metric, unit } = BODY_METRICS[resource]!;
  const value = BODY_VALUE[resource]!;
  const last = new Map<string, Weighing>();
  for (const w of weighings(c.a)) if (w.date >= c.start && w.date <= c.end) last.set(w.date, w);
  return [
    c.series(metric, unit, {
      days: datesBetween(c.start, c.end, 4000).map((date) => {
        const w = last.get(date);
        const v = w ? value(w) : null;
        return { date, value: v === 0 ? null : v };
      }),
    }),
  ];
}

/** `/body/log/{weight,fat}/…`: a point per weighing at its instant (weight log: weight, BMI, body fat). */
function bodyLog(c: Ctx): Series[] {
  const kind = /^\/body\/log\/(\w+)\//.exec(c.path)![1]!;
  const logs = weighings(c.a);
  const point = (w: Weighing, value: number | null): SeriesPoint => ({
    at: new Date(w.t).toISOString(),
    date: w.date,
    time: w.time,
    offsetMinutes: w.offsetSeconds === null ? offsetMinutesAt(c.zone, w.t) : Math.round(w.offsetSeconds / 60),
    value,
    detail: { logId: w.logId, source: w.source },
  });
  const metrics = kind === 'fat' ? ['fat'] : ['weight', 'bmi', 'fat'];
  return metrics.map((k) => {
    const { metric, unit } = BODY_METRICS[k]!;
    const value = BODY_VALUE[k]!;
    return c.series(metric, unit, {
      points: logs.filter((w) => value(w) !== null).map((w) => point(w, value(w))),
    });
  });
}

// ------------------------------------------------------------ foods and daily health metrics

/** `/foods/log/{caloriesIn,water}/…`: every day, the day's total rounded, 0 without a log. */
function foodsSeries(c: Ctx): Series[] {
  const resource = /^\/foods\/log\/(\w+)\//.exec(c.path)![1]!;
  const { metric, unit } = FOOD_METRICS[resource]!;
  const water = resource === 'water';
  const values = water
    ? dailySums(c.a, 'hydration-log', (p) => num(obj(p.amountConsumed).millilitersSum))
    : dailySums(c.a, 'nutrition-log', (p) => num(obj(p.energy).kcalSum));
  return [
    c.series(metric, unit, {
      days: datesBetween(c.start, c.end, 4000).map((date) => ({
        date,
        value: plain(Math.round(values.get(date) ?? 0)),
      })),
    }),
  ];
}

/** A daily type's days in date order, for the dates `day` answers (not null). */
function dailyDays(c: Ctx, kind: string, day: (p: Json) => Omit<SeriesDay, 'date'> | null): SeriesDay[] {
  const out: SeriesDay[] = [];
  for (const [date, p] of [...dailyPayloads(c.a, DAILY_TYPE[kind]!, c.start, c.end)].sort(([x], [y]) =>
    x.localeCompare(y),
  )) {
    const d = day(p);
    if (d) out.push({ date, ...d });
  }
  return out;
}

function healthMetric(c: Ctx, kind: string): Series[] {
  switch (kind) {
    case 'spo2':
      // The average only: Google's bounds are confidence bounds, not the night's min and max.
      return [
        c.series('spo2', '%', {
          days: dailyDays(c, kind, (p) => {
            const avg = num(p.averagePercentage);
            return avg === null ? null : { value: round(avg, 3), detail: { min: null, max: null } };
          }),
        }),
      ];
    case 'cardioscore':
      // One number (VO2 max), not the legacy range.
      return [
        c.series('cardio_score', 'mL/kg/min', {
          days: dailyDays(c, kind, (p) => {
            const v = num(p.vo2Max);
            return v === null ? null : { value: round(v, 1), text: String(round(v, 1)) };
          }),
        }),
      ];
    case 'hrv':
      return [
        c.series('hrv', 'ms', {
          days: dailyDays(c, kind, (p) => {
            const daily = num(p.averageHeartRateVariabilityMilliseconds);
            const deep = num(p.deepSleepRootMeanSquareOfSuccessiveDifferencesMilliseconds);
            if (daily === null && deep === null) return null;
            return {
              value: daily === null ? null : round(daily, 3),
              detail: { deepRmssd: deep === null ? null : round(deep, 3) },
            };
          }),
        }),
      ];
    case 'br':
      return [
        c.series('breathing_rate', 'breaths/min', {
          days: dailyDays(c, kind, (p) => {
            const v = num(p.breathsPerMinute);
            return v === null ? null : { value: round(v, 3) };
          }),
        }),
      ];
    default:
      // Skin temperature: the night's value relative to the personal baseline (§6 row 18).
      return [
        c.series('skin_temperature', '°C', {
          days: dailyDays(c, kind, (p) => {
            const nightly = num(p.nightlyTemperatureCelsius);
            const baseline = num(p.baselineTemperatureCelsius);
            if (nightly === null || baseline === null) return null;
            return { value: round(nightly - baseline, 2), detail: { logType: 'dedicated_temp_sensor' } };
          }),
        }),
      ];
  }
}

// ------------------------------------------------------------ the reader's toSeries

/**
 * The series of a tracker path from the reader's answer (`body.calls`):
 * `timeZone` is the participant's (it labels the series); local times of
 * instants are read in the zone of the settings read with the data, else it.
 */
export function googleToSeries(query: DataQuery, answer: ProviderAnswer, timeZone: string | null): SeriesSet {
  if (query.resource !== 'tracker') return { series: [] };
  const path = query.params.path ?? '';
  const r = parseFitbitResourcePath(path);
  if (!r?.start || !r.end) return { series: [] };
  const a = new Answered((answer.body as Partial<GoogleTrackerBody> | null)?.calls ?? []);
  const zone = a.settingsZone() ?? timeZone ?? 'UTC';
  const label = timeZone ?? zone;
  const c: Ctx = {
    a,
    r,
    path,
    start: r.start,
    end: r.end,
    zone,
    series: (metric, unit, values) =>
      series(metric, unit, label, values, { provider: 'google_health', request: answer.request }),
  };
  const kind = /^\/temp\/skin\/date\//.test(path) ? 'temp-skin' : r.kind;
  switch (kind) {
    case 'activity-series':
      return { series: activitySeries(c) };
    case 'activity-day':
      return { series: activityDay(c) };
    case 'activity-intraday':
      return { series: activityIntraday(c) };
    case 'heart-series':
      return { series: heartSeries(c) };
    case 'heart-intraday':
      return { series: heartIntraday(c) };
    case 'sleep-range':
      return { series: sleepRange(c) };
    case 'body-series':
      return { series: bodySeries(c) };
    case 'body-log':
      return { series: bodyLog(c) };
    case 'foods-series':
      return { series: foodsSeries(c) };
    case 'spo2':
    case 'cardioscore':
    case 'hrv':
    case 'br':
    case 'temp-skin':
      return { series: healthMetric(c, kind) };
    default:
      return { series: [] };
  }
}
