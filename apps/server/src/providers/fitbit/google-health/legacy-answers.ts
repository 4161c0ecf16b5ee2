/*
 * Legacy Fitbit answers from the Google Health API (google-health-api.md §6).
 * Each allow-listed tracker resource path of the contract is answered in the
 * legacy Web API's shape — same keys, metric units, the user's local dates
 * and times — computed from the Google calls that replace it, so the data
 * pages, the overview, the local summary, the sync and the export read a
 * Google Health link exactly as a legacy one.
 *
 * Rules (§6 "general adapter rules"): daily totals from dailyRollUp (it
 * merges sources as the Fitbit app does; list would double-count), days
 * bucketed by Google's civil dates (never by physical time), int64 strings
 * parsed, SI units converted to the legacy metric ones (mm → km or m,
 * g → kg, Duration → minutes). Legacy activity series list every day of the
 * range with "0" where there was no data; so does this adapter.
 *
 * One module per resource family in legacy/ (activity, heart, sleep, body,
 * foods, health metrics). Known gaps, documented in ARCHITECTURE.md: the heart series carries no
 * heart-rate zones (Google's zone model has no 1:1 map); SpO2 has the
 * average only (Google's bounds are confidence bounds, not the night's
 * min/max); the cardio score is one number, not the legacy range; sleep
 * stage averages over 30 days are absent.
 */
import type { FitbitResource } from '@trialwear/contract';
import { durationSeconds } from './civil-time.js';
import type { GoogleHealthCalls } from './google-http.js';
import { activityDay, activitySeries } from './legacy/activity.js';
import { activityIntraday } from './legacy/activity-intraday.js';
import { bodyLog, bodySeries } from './legacy/body.js';
import { foodsSeries } from './legacy/foods.js';
import { userZone } from './legacy/google-payloads.js';
import { breathingRate, cardioscore, hrv, skinTemperature, spo2 } from './legacy/health-metrics.js';
import { heartIntraday, heartSeries } from './legacy/heart.js';
import { sleepRange } from './legacy/sleep.js';

export class UnsupportedResource extends Error {}

/** `/1/user/-/profile.json`'s part the portal reads: the zone and its current offset. */
export async function profileAnswer(calls: GoogleHealthCalls) {
  const { zone, settings } = await userZone(calls);
  const offset = durationSeconds(settings.utcOffset);
  return { user: { timezone: zone, ...(offset === null ? {} : { offsetFromUTCMillis: offset * 1000 }) } };
}

/** The legacy answer body of an allow-listed tracker path (`r` = the contract's parse of `path`). */
export async function legacyAnswer(
  calls: GoogleHealthCalls,
  path: string,
  r: FitbitResource,
): Promise<unknown> {
  // Skin temperature is matched by its path: its allow-list kind comes with the sync of those metrics.
  if (/^\/temp\/skin\/date\//.test(path)) return skinTemperature(calls, r);
  switch (r.kind) {
    case 'activity-series':
      return activitySeries(calls, path, r);
    case 'activity-day':
      return activityDay(calls, r.start!);
    case 'activity-intraday':
      return activityIntraday(calls, path, r);
    case 'heart-series':
      return heartSeries(calls, r);
    case 'heart-intraday':
      return heartIntraday(calls, path, r);
    case 'sleep-range':
      return sleepRange(calls, r);
    case 'body-series':
      return bodySeries(calls, /^\/body\/(\w+)\//.exec(path)![1] as 'weight' | 'fat' | 'bmi', r);
    case 'body-log':
      return bodyLog(calls, /^\/body\/log\/(\w+)\//.exec(path)![1]!, r);
    case 'foods-series':
      return foodsSeries(calls, /^\/foods\/log\/(\w+)\//.exec(path)![1] as 'caloriesIn' | 'water', r);
    case 'spo2':
      return spo2(calls, r);
    case 'cardioscore':
      return cardioscore(calls, r);
    case 'hrv':
      return hrv(calls, r);
    case 'br':
      return breathingRate(calls, r);
    default:
      // The paginated lists (activity log, sleep list) and a day's food log: not mapped yet.
      throw new UnsupportedResource(`${path} is not available through the Google Health API`);
  }
}
