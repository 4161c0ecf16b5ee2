/*
 * Fitbit (providers.md §1.7): daily values read as date-range series in the
 * participant's local dates — one call per resource per window of at most 30
 * days (the weight log's limit is 31; HRV, breathing rate, skin temperature
 * and cardio score allow 30), from the oldest cursor of the metrics that
 * resource serves to the participant's local today. A day's value is stored
 * at the local midnight instant with the offset in force then; a weighing at
 * its local date and time. Values keep Fitbit's metric units.
 * Fitbit answers "0" for activity on days without data: stored as given.
 *
 * Intraday heart rate is one call per local day (24 h is its maximum span):
 * at most INTRADAY_DAYS_PER_RUN days per sync, oldest first from its cursor,
 * so a new link's 30-day backfill is spread over a few runs (every 15 min)
 * instead of spending a quarter of the hour's budget at once; each minute is
 * stored at its local wall-clock time with the offset then in force.
 */
import { addDays, instantOfLocal, localDate, offsetMinutesAt } from '@trialwear/zone';
import type { GroupResult, ProviderSync, Reading, SyncIO } from '../types.js';
import { ReadRefused } from '../types.js';

const WINDOW_DAYS = 30;
/** Intraday heart-rate days read per sync (one call each); the rest waits for the next run. */
export const INTRADAY_DAYS_PER_RUN = 10;
/** A cursor older than this (a long outage) is not walked back further. */
const MAX_CATCH_UP_DAYS = 90;

type Entry = Record<string, unknown>;
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const list = (body: unknown, key?: string): Entry[] => {
  const v = key === undefined ? body : (body as Record<string, unknown> | null)?.[key];
  return Array.isArray(v) ? (v as Entry[]) : [];
};

/** A reading at a local date (and time) in the zone. */
function at(
  tz: string,
  metricKey: string,
  date: string,
  time: string,
  value: number | null,
  json: unknown = null,
): Reading {
  const t = instantOfLocal(tz, `${date}T${time}`);
  return {
    metricKey,
    measuredAt: new Date(t),
    localDate: date,
    localTime: time,
    utcOffsetMinutes: offsetMinutesAt(tz, t),
    value,
    valueJson: json,
  };
}

/** Catalog key → Fitbit activity time-series resource. */
const ACTIVITY: Record<string, string> = {
  steps: 'steps',
  distance: 'distance',
  floors: 'floors',
  calories: 'calories',
  minutes_sedentary: 'minutesSedentary',
  minutes_lightly_active: 'minutesLightlyActive',
  minutes_fairly_active: 'minutesFairlyActive',
  minutes_very_active: 'minutesVeryActive',
};

/** One read per group: the metrics it serves, its resource path, how its answer becomes readings. */
interface Group {
  metrics: string[];
  path: (start: string, end: string) => string;
  parse: (body: unknown, tz: string, wanted: ReadonlySet<string>) => Reading[];
}

const GROUPS: Group[] = [
  ...Object.entries(ACTIVITY).map(
    ([key, resource]): Group => ({
      metrics: [key],
      path: (s, e) => `/activities/${resource}/date/${s}/${e}.json`,
      parse: (body, tz) =>
        list(body, `activities-${resource}`).map((d) =>
          at(tz, key, String(d.dateTime), '00:00:00', num(d.value)),
        ),
    }),
  ),
  {
    metrics: ['resting_heart_rate'],
    path: (s, e) => `/activities/heart/date/${s}/${e}.json`,
    parse: (body, tz) =>
      list(body, 'activities-heart').flatMap((d) => {
        const v = num((d.value as { restingHeartRate?: unknown } | undefined)?.restingHeartRate);
        return v === null ? [] : [at(tz, 'resting_heart_rate', String(d.dateTime), '00:00:00', v)];
      }),
  },
  {
    metrics: ['sleep_duration', 'sleep_stages'],
    path: (s, e) => `/sleep/date/${s}/${e}.json`,
    parse: (body, tz, wanted) =>
      list(body, 'sleep')
        .filter((s) => s.isMainSleep === true)
        .flatMap((s) => {
          const date = String(s.dateOfSleep);
          const out: Reading[] = [];
          const times = { startTime: s.startTime, endTime: s.endTime };
          if (wanted.has('sleep_duration'))
            out.push(at(tz, 'sleep_duration', date, '00:00:00', num(s.minutesAsleep), times));
          if (wanted.has('sleep_stages')) {
            const summary = (s.levels as { summary?: Record<string, { minutes?: number }> } | undefined)
              ?.summary;
            const stages = Object.fromEntries(
              ['deep', 'light', 'rem', 'wake'].map((k) => [k, summary?.[k]?.minutes ?? null]),
            );
            out.push(at(tz, 'sleep_stages', date, '00:00:00', null, { ...times, ...stages }));
          }
          return out;
        }),
  },
  {
    metrics: ['weight', 'bmi', 'body_fat'],
    path: (s, e) => `/body/log/weight/date/${s}/${e}.json`,
    parse: (body, tz, wanted) =>
      list(body, 'weight').flatMap((w) => {
        const date = String(w.date);
        const time = typeof w.time === 'string' ? w.time : '00:00:00';
        const json = { logId: w.logId ?? null, source: w.source ?? null };
        const fields: Array<[string, unknown]> = [
          ['weight', w.weight],
          ['bmi', w.bmi],
          ['body_fat', w.fat],
        ];
        return fields.flatMap(([key, v]) =>
          wanted.has(key) && num(v) !== null ? [at(tz, key, date, time, num(v), json)] : [],
        );
      }),
  },
  {
    metrics: ['hrv'],
    path: (s, e) => `/hrv/date/${s}/${e}.json`,
    parse: (body, tz) =>
      list(body, 'hrv').flatMap((d) => {
        const v = d.value as { dailyRmssd?: unknown; deepRmssd?: unknown } | undefined;
        const daily = num(v?.dailyRmssd);
        return daily === null
          ? []
          : [at(tz, 'hrv', String(d.dateTime), '00:00:00', daily, { deepRmssd: num(v?.deepRmssd) })];
      }),
  },
  {
    metrics: ['breathing_rate'],
    path: (s, e) => `/br/date/${s}/${e}.json`,
    parse: (body, tz) =>
      list(body, 'br').flatMap((d) => {
        const v = num((d.value as { breathingRate?: unknown } | undefined)?.breathingRate);
        return v === null ? [] : [at(tz, 'breathing_rate', String(d.dateTime), '00:00:00', v)];
      }),
  },
  {
    metrics: ['skin_temperature'],
    path: (s, e) => `/temp/skin/date/${s}/${e}.json`,
    parse: (body, tz) =>
      list(body, 'tempSkin').flatMap((d) => {
        const v = num((d.value as { nightlyRelative?: unknown } | undefined)?.nightlyRelative);
        return v === null
          ? []
          : [
              at(tz, 'skin_temperature', String(d.dateTime), '00:00:00', v, {
                logType: d.logType ?? null,
              }),
            ];
      }),
  },
  {
    metrics: ['cardio_score'],
    path: (s, e) => `/cardioscore/date/${s}/${e}.json`,
    parse: (body, tz) =>
      list(body, 'cardioScore').flatMap((d) => {
        const vo2Max = (d.value as { vo2Max?: unknown } | undefined)?.vo2Max;
        const v = vo2MaxValue(vo2Max);
        return v === null
          ? []
          : [at(tz, 'cardio_score', String(d.dateTime), '00:00:00', v, { vo2Max: String(vo2Max) })];
      }),
  },
  {
    metrics: ['spo2'],
    path: (s, e) => `/spo2/date/${s}/${e}.json`,
    parse: (body, tz) =>
      list(body).flatMap((d) => {
        const v = d.value as { avg?: unknown; min?: unknown; max?: unknown } | undefined;
        const avg = num(v?.avg);
        return avg === null
          ? []
          : [at(tz, 'spo2', String(d.dateTime), '00:00:00', avg, { min: num(v?.min), max: num(v?.max) })];
      }),
  },
];

/**
 * Fitbit's cardio score is a range string ("44-48") without GPS runs and a
 * single number string with them (providers.md §1.7.9): the number, or the
 * middle of the range (the text itself is kept in value_json).
 */
export function vo2MaxValue(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:-\s*(\d+(?:\.\d+)?)\s*)?$/.exec(v);
  if (!m) return null;
  return m[2] === undefined ? Number(m[1]) : (Number(m[1]) + Number(m[2])) / 2;
}

const INTRADAY_KEY = 'heart_rate_intraday';

/** Intraday heart rate at 1min: one call per local day, at most INTRADAY_DAYS_PER_RUN per sync. */
async function syncIntradayHeart(io: SyncIO, tz: string, start: string, today: string) {
  let day = start;
  for (let n = 0; n < INTRADAY_DAYS_PER_RUN && day <= today; n++, day = addDays(day, 1)) {
    let readings: Reading[];
    try {
      const answer = await io.read({
        resource: 'tracker',
        params: { path: `/activities/heart/date/${day}/1d/1min.json` },
      });
      const dataset = (answer.body as { 'activities-heart-intraday'?: { dataset?: unknown } } | null)?.[
        'activities-heart-intraday'
      ]?.dataset;
      readings = list(dataset).flatMap((e) => {
        const v = num(e.value);
        const time = typeof e.time === 'string' && /^\d{2}:\d{2}:\d{2}$/.test(e.time) ? e.time : null;
        return v === null || time === null ? [] : [at(tz, INTRADAY_KEY, day, time, v)];
      });
    } catch (err) {
      if (!(err instanceof ReadRefused)) throw err;
      io.fail({ metrics: [INTRADAY_KEY], error: err.message });
      return;
    }
    await io.store({ metrics: [INTRADAY_KEY], readings, cursor: { date: day } });
  }
}

export const fitbitSync: ProviderSync = {
  metrics: [...GROUPS.flatMap((g) => g.metrics), INTRADAY_KEY],
  async run(io: SyncIO, metrics) {
    const tz = await io.zone();
    const today = localDate(tz, io.now);
    const firstDay = addDays(today, -(io.backfillDays - 1));
    const floor = addDays(today, -((io.catchUpDays ?? MAX_CATCH_UP_DAYS) - 1));
    for (const g of GROUPS) {
      const wanted = new Set(g.metrics.filter((m) => metrics.includes(m)));
      if (wanted.size === 0) continue;
      // From the oldest cursor among the group's metrics (a metric enabled later backfills).
      const starts = [...wanted].map((m) => io.cursor(m).date ?? firstDay);
      let start = starts.sort()[0]!;
      if (start < floor) start = floor;
      for (let from = start; from <= today; from = addDays(from, WINDOW_DAYS)) {
        const to = [addDays(from, WINDOW_DAYS - 1), today].sort()[0]!;
        let readings: Reading[];
        try {
          const answer = await io.read({ resource: 'tracker', params: { path: g.path(from, to) } });
          readings = g.parse(answer.body, tz, wanted);
        } catch (err) {
          if (!(err instanceof ReadRefused)) throw err;
          io.fail({ metrics: [...wanted], error: err.message });
          break;
        }
        const group: GroupResult = { metrics: [...wanted], readings, cursor: { date: to } };
        await io.store(group);
      }
    }
    // Last: the daily groups are few calls; intraday days are one call each.
    if (metrics.includes(INTRADAY_KEY)) {
      const from = io.cursor(INTRADAY_KEY).date ?? firstDay;
      await syncIntradayHeart(io, tz, from < floor ? floor : from, today);
    }
  },
};
