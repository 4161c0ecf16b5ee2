/*
 * Fitbit's sync mapping (providers.md §1.7), for both of its APIs: daily
 * values read as date-range series in the participant's local dates — one
 * read per resource per window of at most 30 days, from the oldest cursor of
 * the metrics that resource serves to the participant's local today — and
 * stored from the link's normalized series (decision 030). A day's value is
 * stored at the local midnight instant with the offset in force then; a
 * weighing at its local date and time. Values keep Fitbit's metric units.
 * Fitbit answers "0" for activity on days without data: stored as given.
 *
 * Intraday heart rate and steps are one read per metric and local day (24 h
 * is their maximum span): at most INTRADAY_DAYS_PER_RUN days per metric and
 * sync, oldest first from its cursor, so a new link's 30-day backfill of both
 * (about 60 calls) is spread over four runs (every 15 min) instead of
 * spending 60 of the hour's 150 calls at once; each minute is stored at its local
 * wall-clock time with the offset then in force, the day as a whole
 * (intraday_days, decision 039: a revised day replaces the stored one).
 */
import { type Series, type SeriesDay, type SeriesPoint, seriesOf } from '@trialwear/contract';
import { addDays, instantOfLocal, localDate, offsetMinutesAt } from '@trialwear/zone';
import type { GroupResult, ProviderSync, Reading, SyncIO } from '../sync-types.js';
import { ReadRefused } from '../sync-types.js';

export { vo2MaxValue } from './series-kit.js';

const WINDOW_DAYS = 30;
/** Intraday heart-rate days read per sync (one call each); the rest waits for the next run. */
export const INTRADAY_DAYS_PER_RUN = 10;
/** A cursor older than this (a long outage) is not walked back further. */
const MAX_CATCH_UP_DAYS = 90;

/** A daily value as a reading at its local midnight. */
function dayReading(tz: string, metricKey: string, d: SeriesDay, valueJson: unknown = null): Reading {
  const t = instantOfLocal(tz, `${d.date}T00:00:00`);
  return {
    metricKey,
    measuredAt: new Date(t),
    localDate: d.date,
    localTime: '00:00:00',
    utcOffsetMinutes: offsetMinutesAt(tz, t),
    value: d.value,
    valueJson,
  };
}

/** A point as a reading at its own instant and local time. */
const pointReading = (metricKey: string, p: SeriesPoint, valueJson: unknown = null): Reading => ({
  metricKey,
  measuredAt: new Date(p.at),
  localDate: p.date,
  localTime: p.time,
  utcOffsetMinutes: p.offsetMinutes,
  value: p.value,
  valueJson,
});

const days = (series: Series[], metric: string) => seriesOf(series, metric)?.days ?? [];
const points = (series: Series[], metric: string) => seriesOf(series, metric)?.points ?? [];

/** One read per group: the metrics it serves, its resource path, how its series become readings. */
interface Group {
  metrics: string[];
  path: (start: string, end: string) => string;
  readings: (series: Series[], tz: string, wanted: ReadonlySet<string>) => Reading[];
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

/** A daily metric whose listed days without a value are not stored. */
const valuedDays =
  (metric: string, json: (d: SeriesDay) => unknown = () => null) =>
  (series: Series[], tz: string) =>
    days(series, metric).flatMap((d) => (d.value === null ? [] : [dayReading(tz, metric, d, json(d))]));

const GROUPS: Group[] = [
  ...Object.entries(ACTIVITY).map(
    ([key, resource]): Group => ({
      metrics: [key],
      path: (s, e) => `/activities/${resource}/date/${s}/${e}.json`,
      readings: (series, tz) => days(series, key).map((d) => dayReading(tz, key, d)),
    }),
  ),
  {
    metrics: ['resting_heart_rate'],
    path: (s, e) => `/activities/heart/date/${s}/${e}.json`,
    readings: valuedDays('resting_heart_rate'),
  },
  {
    metrics: ['sleep_duration', 'sleep_stages'],
    path: (s, e) => `/sleep/date/${s}/${e}.json`,
    // The main sleep of each date of sleep, stored at that date's midnight.
    readings: (series, tz, wanted) => {
      const main = (metric: string) => points(series, metric).filter((p) => p.detail?.isMainSleep === true);
      const times = (p: SeriesPoint) => ({ startTime: p.detail?.startTime, endTime: p.detail?.endTime });
      const out: Reading[] = [];
      if (wanted.has('sleep_duration'))
        for (const p of main('sleep_duration'))
          out.push(dayReading(tz, 'sleep_duration', { date: p.date, value: p.value }, times(p)));
      if (wanted.has('sleep_stages'))
        for (const p of main('sleep_stages')) {
          const { deep, light, rem, wake, intervals } = p.detail ?? {};
          out.push(
            dayReading(
              tz,
              'sleep_stages',
              { date: p.date, value: null },
              { ...times(p), deep, light, rem, wake, intervals: intervals ?? [] },
            ),
          );
        }
      return out;
    },
  },
  {
    metrics: ['weight', 'bmi', 'body_fat'],
    path: (s, e) => `/body/log/weight/date/${s}/${e}.json`,
    readings: (series, _tz, wanted) =>
      ['weight', 'bmi', 'body_fat'].flatMap((key) =>
        wanted.has(key)
          ? points(series, key).map((p) =>
              pointReading(key, p, { logId: p.detail?.logId ?? null, source: p.detail?.source ?? null }),
            )
          : [],
      ),
  },
  {
    metrics: ['hrv'],
    path: (s, e) => `/hrv/date/${s}/${e}.json`,
    readings: valuedDays('hrv', (d) => ({ deepRmssd: d.detail?.deepRmssd ?? null })),
  },
  {
    // The nights' 5-minute samples (a night belongs to its wake-up date), each at its own instant.
    metrics: ['hrv_intraday'],
    path: (s, e) => `/hrv/date/${s}/${e}/all.json`,
    readings: (series) =>
      points(series, 'hrv_intraday').map((p) => pointReading('hrv_intraday', p, p.detail ?? null)),
  },

  {
    metrics: ['breathing_rate'],
    path: (s, e) => `/br/date/${s}/${e}.json`,
    readings: valuedDays('breathing_rate'),
  },
  {
    metrics: ['skin_temperature'],
    path: (s, e) => `/temp/skin/date/${s}/${e}.json`,
    readings: valuedDays('skin_temperature', (d) => ({ logType: d.detail?.logType ?? null })),
  },
  {
    metrics: ['cardio_score'],
    path: (s, e) => `/cardioscore/date/${s}/${e}.json`,
    readings: valuedDays('cardio_score', (d) => ({ vo2Max: d.text })),
  },
  {
    metrics: ['spo2'],
    path: (s, e) => `/spo2/date/${s}/${e}.json`,
    readings: valuedDays('spo2', (d) => ({ min: d.detail?.min ?? null, max: d.detail?.max ?? null })),
  },
];

/** The intraday metrics: one read per local day at 1-minute detail, and the series metric of its answer. */
const INTRADAY: readonly { key: string; path: (day: string) => string; seriesMetric: string }[] = [
  {
    key: 'heart_rate_intraday',
    path: (day) => `/activities/heart/date/${day}/1d/1min.json`,
    seriesMetric: 'heart_rate_intraday',
  },
  {
    key: 'steps_intraday',
    path: (day) => `/activities/steps/date/${day}/1d/1min.json`,
    seriesMetric: 'steps',
  },
  // Only when the team stores it: a day of 1-second samples is the largest answer Fitbit gives.
  {
    key: 'heart_rate_1sec',
    path: (day) => `/activities/heart/date/${day}/1d/1sec.json`,
    seriesMetric: 'heart_rate_intraday',
  },
];

/**
 * One intraday metric: one call per local day, at most INTRADAY_DAYS_PER_RUN
 * per sync. A day read before the tracker had uploaded all of it (the
 * tracker away from the phone: Fitbit has the day in part) is read again
 * once the tracker's upload covers it: the cursor's `complete` is the last
 * date up to which every day was read whole, and a run that finds the day
 * after it now covered (the device list's last sync, kept by the hourly
 * device check) starts from there. Without a known upload time every day
 * read counts as whole (a new link before its first device check).
 */
async function syncIntraday(
  io: SyncIO,
  tz: string,
  metric: (typeof INTRADAY)[number],
  start: string,
  today: string,
  floor: string,
) {
  let complete = io.cursor(metric.key).complete ?? null;
  const uploaded = io.uploadedAt;
  const whole = (date: string) =>
    uploaded === null || uploaded.getTime() >= instantOfLocal(tz, `${addDays(date, 1)}T00:00:00`);
  let day = start;
  // Days read before the upload that now covers them: read again from the first of them.
  if (complete && addDays(complete, 1) < day && whole(addDays(complete, 1)))
    day = [addDays(complete, 1), floor].sort().at(-1)!;
  for (let n = 0; n < INTRADAY_DAYS_PER_RUN && day <= today; n++, day = addDays(day, 1)) {
    let readings: Reading[];
    try {
      const { series } = await io.series({ resource: 'tracker', params: { path: metric.path(day) } }, tz);
      // The day's minutes only (an answer may also list the day's total as a day, not a point).
      readings = points(series, metric.seriesMetric)
        .filter((p) => p.date === day)
        .map((p) => pointReading(metric.key, p));
    } catch (err) {
      if (!(err instanceof ReadRefused)) throw err;
      io.fail({ metrics: [metric.key], error: err.message });
      return;
    }
    // Every day up to this one read whole (the days of a backfill before it had none to wait for).
    if (whole(day) && (complete === null || (complete < day && complete >= addDays(day, -1)))) complete = day;
    // The whole day at once: the store replaces the day's stored minutes (a revised day).
    await io.store({ metrics: [metric.key], readings, cursor: { date: day, complete } });
  }
  // Stopped by the per-run limit with a day not read yet: more to read.
  if (day <= today) io.more();
}

export const fitbitSync: ProviderSync = {
  metrics: [...GROUPS.flatMap((g) => g.metrics), ...INTRADAY.map((m) => m.key)],
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
          const { series } = await io.series({ resource: 'tracker', params: { path: g.path(from, to) } }, tz);
          readings = g.readings(series, tz, wanted);
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
    for (const metric of INTRADAY) {
      if (!metrics.includes(metric.key)) continue;
      const from = io.cursor(metric.key).date ?? firstDay;
      await syncIntraday(io, tz, metric, from < floor ? floor : from, today, floor);
    }
  },
};
