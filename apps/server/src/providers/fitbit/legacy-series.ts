/*
 * The legacy Fitbit Web API's answers as normalized series (decision 030):
 * the only place outside the simulators that reads its JSON
 * (`activities-steps`, `activities-heart-intraday`, `sleep`, `body-weight`,
 * …). Dates and times in those answers are the participant's local ones;
 * `timeZone` (the profile's zone) gives each point its instant and offset.
 *
 * Fitbit's own conventions are applied here, once: values arrive as strings;
 * an activity series lists every day of the range ("0" when nothing was
 * recorded, kept as 0); a body series lists "0" for a day without a
 * weighing (null: no value); SpO2 answers a range as a bare list; the cardio
 * score may be a range ("44-48").
 */
import {
  type FitbitResource,
  parseFitbitResourcePath,
  type SeriesDay,
  type SeriesPoint,
} from '@trialwear/contract';
import { offsetMinutesAt, wallClock } from '@trialwear/zone';
import type { DataQuery, ProviderAnswer, SeriesSet } from '../types.js';
import {
  ACTIVITY_METRICS,
  BODY_METRICS,
  clockOf,
  dayPoints,
  FOOD_METRICS,
  localPoint,
  num,
  series,
  vo2MaxValue,
} from './series-kit.js';

type Entry = Record<string, unknown>;
const list = (body: unknown, key?: string): Entry[] => {
  const v = key === undefined ? body : (body as Entry | null)?.[key];
  return Array.isArray(v) ? (v as Entry[]) : [];
};
const field = (v: unknown, key: string): unknown => (v as Entry | null | undefined)?.[key];

/** The resource segment of a path (`/activities/tracker/minutesLightlyActive/…` → minutesLightlyActive). */
const segment = (path: string, re: RegExp) => re.exec(path)?.[1] ?? '';

export function legacyToSeries(query: DataQuery, answer: ProviderAnswer, timeZone: string | null): SeriesSet {
  const path = query.params.path ?? '';
  const r = query.resource === 'tracker' ? parseFitbitResourcePath(path) : null;
  if (!r) return { series: [] };
  return mapLegacy(path, r, answer, timeZone ?? 'UTC');
}

function mapLegacy(path: string, r: FitbitResource, answer: ProviderAnswer, tz: string): SeriesSet {
  const body = answer.body;
  const src = { provider: 'fitbit' as const, request: answer.request };
  const daily = (metric: string, unit: string, days: SeriesDay[]) => series(metric, unit, tz, { days }, src);
  const dailyOf = (metric: string, unit: string, rows: Entry[], value: (e: Entry) => SeriesDay['value']) =>
    daily(
      metric,
      unit,
      rows.map((e) => ({ date: String(e.dateTime), value: value(e) })),
    );

  switch (r.kind) {
    case 'activity-series': {
      const resource = segment(path, /^\/activities\/(?:tracker\/)?(\w+)\//);
      const tracker = path.startsWith('/activities/tracker/');
      const m = ACTIVITY_METRICS[resource]!;
      const key = `activities-${tracker ? 'tracker-' : ''}${resource}`;
      return { series: [dailyOf(m.metric, m.unit, list(body, key), (e) => num(e.value))] };
    }
    case 'activity-intraday': {
      const resource = segment(path, /^\/activities\/(\w+)\//);
      const m = ACTIVITY_METRICS[resource]!;
      const dataset = list(field(body, `activities-${resource}-intraday`), 'dataset');
      return { series: [series(m.metric, m.unit, tz, { points: intraday(tz, r.start!, dataset) }, src)] };
    }
    case 'activity-day': {
      const s = field(body, 'summary') as Entry | undefined;
      const date = r.start!;
      const total = list(s, 'distances').find((d) => d.activity === 'total');
      const one = (metric: string, unit: string, v: unknown) =>
        daily(metric, unit, [{ date, value: num(v) }]);
      return {
        series: s
          ? [
              one('steps', 'steps', s.steps),
              one('distance', 'km', total?.distance),
              one('floors', 'floors', s.floors),
              one('calories', 'kcal', s.caloriesOut),
              one('minutes_sedentary', 'min', s.sedentaryMinutes),
              one('minutes_lightly_active', 'min', s.lightlyActiveMinutes),
              one('minutes_fairly_active', 'min', s.fairlyActiveMinutes),
              one('minutes_very_active', 'min', s.veryActiveMinutes),
            ]
          : [],
      };
    }
    case 'heart-series':
      return {
        series: [
          dailyOf('resting_heart_rate', 'bpm', list(body, 'activities-heart'), (e) =>
            num(field(e.value, 'restingHeartRate')),
          ),
        ],
      };
    case 'heart-intraday': {
      const dataset = list(field(body, 'activities-heart-intraday'), 'dataset');
      return {
        series: [series('heart_rate_intraday', 'bpm', tz, { points: intraday(tz, r.start!, dataset) }, src)],
      };
    }
    case 'sleep-range':
    case 'sleep-list':
      return { series: sleepSeries(list(body, 'sleep'), tz, src) };
    case 'body-series': {
      const resource = segment(path, /^\/body\/(\w+)\//);
      const m = BODY_METRICS[resource]!;
      // A day without a weighing is "0" in the series.
      return {
        series: [
          dailyOf(m.metric, m.unit, list(body, `body-${resource}`), (e) => {
            const v = num(e.value);
            return v === null || v === 0 ? null : v;
          }),
        ],
      };
    }
    case 'body-log':
      return { series: bodyLogSeries(segment(path, /^\/body\/log\/(\w+)\//), body, tz, src) };
    case 'foods-series': {
      const resource = segment(path, /^\/foods\/log\/(\w+)\//);
      const m = FOOD_METRICS[resource]!;
      return {
        series: [dailyOf(m.metric, m.unit, list(body, `foods-log-${resource}`), (e) => num(e.value))],
      };
    }
    case 'foods-day':
      return { series: [], records: list(body, 'foods') };
    case 'activity-logs':
      return { series: [], records: list(body, 'activities') };
    case 'spo2': {
      // A range (the only form the allow-list asks for) is a bare list of the days that have one.
      const rows = list(body);
      return {
        series: [
          daily(
            'spo2',
            '%',
            rows.map((e) => ({
              date: String(e.dateTime),
              value: num(field(e.value, 'avg')),
              detail: { min: num(field(e.value, 'min')), max: num(field(e.value, 'max')) },
            })),
          ),
        ],
      };
    }
    case 'cardioscore':
      return {
        series: [
          daily(
            'cardio_score',
            'mL/kg/min',
            list(body, 'cardioScore').map((e) => {
              const v = field(e.value, 'vo2Max');
              return {
                date: String(e.dateTime),
                value: vo2MaxValue(v),
                ...(v === undefined || v === null ? {} : { text: String(v) }),
              };
            }),
          ),
        ],
      };
    case 'hrv':
      return {
        series: [
          daily(
            'hrv',
            'ms',
            list(body, 'hrv').map((e) => ({
              date: String(e.dateTime),
              value: num(field(e.value, 'dailyRmssd')),
              detail: { deepRmssd: num(field(e.value, 'deepRmssd')) },
            })),
          ),
        ],
      };
    case 'hrv-intraday':
      return {
        series: [series('hrv_intraday', 'ms', tz, { points: hrvMinutes(tz, list(body, 'hrv')) }, src)],
      };
    case 'br':
      return {
        series: [
          dailyOf('breathing_rate', 'breaths/min', list(body, 'br'), (e) =>
            num(field(e.value, 'breathingRate')),
          ),
        ],
      };
    case 'temp-skin':
      return {
        series: [
          daily(
            'skin_temperature',
            '°C',
            list(body, 'tempSkin').map((e) => ({
              date: String(e.dateTime),
              value: num(field(e.value, 'nightlyRelative')),
              detail: { logType: e.logType ?? null },
            })),
          ),
        ],
      };
    case 'overview':
      return { series: [] };
  }
}

/** An intraday dataset (`[{time:"08:00:00", value}]`) of one local date as points; malformed entries are left out. */
function intraday(tz: string, date: string, dataset: Entry[]) {
  const entries = dataset.flatMap((e) => {
    const v = num(e.value);
    const time = typeof e.time === 'string' && /^\d{2}:\d{2}:\d{2}$/.test(e.time) ? e.time : null;
    return v === null || time === null ? [] : [{ time, value: v }];
  });
  return dayPoints(tz, date, entries);
}

/**
 * HRV intraday: each night's 5-minute samples (`minute` local wall clock,
 * `value.rmssd`, with coverage, hf and lf kept), dated by their own clock.
 * The samples come in time order, so a wall-clock time at or before the
 * previous sample's is the second occurrence of a clock hour repeated when
 * the clocks went back.
 */
function hrvMinutes(tz: string, nights: Entry[]): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  let prev = Number.NEGATIVE_INFINITY;
  for (const e of nights.flatMap((n) => list(n, 'minutes'))) {
    const minute = typeof e.minute === 'string' ? e.minute : '';
    const time = clockOf(minute);
    const v = num(field(e.value, 'rmssd'));
    if (!time || v === null || !/^\d{4}-\d{2}-\d{2}T/.test(minute)) continue;
    const detail = {
      coverage: num(field(e.value, 'coverage')),
      hf: num(field(e.value, 'hf')),
      lf: num(field(e.value, 'lf')),
    };
    let p = localPoint(tz, { date: minute.slice(0, 10), time }, v, { detail });
    const t = Date.parse(p.at);
    if (t <= prev) {
      const repeated = t + (p.offsetMinutes - offsetMinutesAt(tz, t + 6 * 3_600_000)) * 60_000;
      if (repeated > prev && wallClock(tz, repeated) === `${p.date}T${time}`)
        p = { ...p, at: new Date(repeated).toISOString(), offsetMinutes: offsetMinutesAt(tz, repeated) };
    }
    prev = Date.parse(p.at);
    out.push(p);
  }
  return out;
}

/** One point per sleep at its start, dated by the provider's date of the sleep (decision 030). */
function sleepSeries(logs: Entry[], tz: string, src: { provider: 'fitbit'; request: string }) {
  const duration = [];
  const stages = [];
  for (const s of logs) {
    const start = typeof s.startTime === 'string' ? s.startTime : '';
    const time = clockOf(start);
    if (!time) continue;
    const base = {
      logId: s.logId ?? null,
      isMainSleep: s.isMainSleep === true,
      startTime: s.startTime,
      endTime: s.endTime,
    };
    const at = { date: start.slice(0, 10), time };
    const date = String(s.dateOfSleep);
    duration.push(localPoint(tz, at, num(s.minutesAsleep), { date, detail: base }));
    const summary = field(s.levels, 'summary') as Record<string, { minutes?: unknown }> | undefined;
    const minutes = Object.fromEntries(
      ['deep', 'light', 'rem', 'wake'].map((k) => [k, num(summary?.[k]?.minutes)]),
    );
    // The stage intervals as listed (local start, level, seconds); malformed entries are left out.
    const intervals = list(s.levels, 'data').flatMap((e) =>
      typeof e.dateTime === 'string' && typeof e.level === 'string' && num(e.seconds) !== null
        ? [{ dateTime: e.dateTime, level: e.level, seconds: num(e.seconds)! }]
        : [],
    );
    stages.push(localPoint(tz, at, null, { date, detail: { ...base, ...minutes, intervals } }));
  }
  return [
    series('sleep_duration', 'min', tz, { points: duration }, src),
    series('sleep_stages', 'min', tz, { points: stages }, src),
  ];
}

/** Weighings at their local date and time: weight, BMI and fat from the weight log; fat from the fat log. */
function bodyLogSeries(
  resource: string,
  body: unknown,
  tz: string,
  src: { provider: 'fitbit'; request: string },
) {
  const rows = list(body, resource);
  const fields: Array<[string, string, string]> =
    resource === 'weight'
      ? [
          ['weight', 'weight', 'kg'],
          ['bmi', 'bmi', 'kg/m²'],
          ['fat', 'body_fat', '%'],
        ]
      : [['fat', 'body_fat', '%']];
  return fields.map(([key, metric, unit]) =>
    series(
      metric,
      unit,
      tz,
      {
        points: rows.flatMap((w) => {
          const v = num(w[key]);
          if (v === null) return [];
          const time = typeof w.time === 'string' ? w.time : '00:00:00';
          return [
            localPoint(tz, { date: String(w.date), time }, v, {
              detail: { logId: w.logId ?? null, source: w.source ?? null },
            }),
          ];
        }),
      },
      src,
    ),
  );
}
