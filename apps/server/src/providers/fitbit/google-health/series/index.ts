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
import { parseFitbitResourcePath } from '@trialwear/contract';
import type { DataQuery, ProviderAnswer, SeriesSet } from '../../../types.js';
import { series } from '../../series-kit.js';
import { activityDay, activityIntraday, activitySeries } from './activity.js';
import { Answered, type Ctx, type GoogleTrackerBody } from './answered.js';
import { bodyLog, bodySeries } from './body.js';
import { foodsSeries } from './foods.js';
import { healthMetric } from './health-metrics.js';
import { heartIntraday, heartSeries, hrvIntraday } from './heart.js';
import { sleepRange } from './sleep.js';

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
    case 'hrv-intraday':
      return { series: hrvIntraday(c) };
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
