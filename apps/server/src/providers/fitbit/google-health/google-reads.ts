/*
 * What the Google Health reader asks Google for each allow-listed tracker
 * path (google-health-api.md §6): the calls only. Their answers are kept as
 * received (GoogleHealthCalls.answered) and mapped to series by
 * series/, so the raw pages show Google's own bodies.
 *
 * Daily totals come from dailyRollUp (it merges sources as the Fitbit app
 * does; list would double-count), the daily types (resting heart rate,
 * SpO2, HRV, …) from list filtered on their civil date, a day's windows from
 * rollUp over the local day's physical instants, sleep from list filtered on
 * the civil end time, weighings from the weight, body-fat and height lists.
 */
import type { FitbitResource } from '@trialwear/contract';
import { addDays, startOfLocalDay } from '@trialwear/zone';
import { durationSeconds } from './civil-time.js';
import { GoogleCallFailed, type GoogleHealthCalls } from './google-http.js';
import { userZone } from './payloads.js';

export class UnsupportedResource extends Error {}

/** The window of each intraday detail level, in seconds ('1sec' reads the samples). */
export const DETAIL_SECONDS: Record<string, number> = { '1min': 60, '5min': 300, '15min': 900 };

/** The Google data type behind each legacy activity resource's daily value. */
const ACTIVITY_TYPE: Record<string, string> = {
  steps: 'steps',
  distance: 'distance',
  floors: 'floors',
  elevation: 'altitude',
  calories: 'total-calories',
  activityCalories: 'active-energy-burned',
  minutesSedentary: 'activity-level',
  minutesLightlyActive: 'activity-level',
  minutesFairlyActive: 'activity-level',
  minutesVeryActive: 'activity-level',
};

/** The Google data type of each intraday activity resource. */
export const INTRADAY_TYPE: Record<string, string> = {
  steps: 'steps',
  distance: 'distance',
  floors: 'floors',
  elevation: 'altitude',
  calories: 'total-calories',
};

/** The Google daily type of each daily health metric path kind. */
export const DAILY_TYPE: Record<string, string> = {
  'heart-series': 'daily-resting-heart-rate',
  spo2: 'daily-oxygen-saturation',
  cardioscore: 'daily-vo2-max',
  hrv: 'daily-heart-rate-variability',
  br: 'daily-respiratory-rate',
  'temp-skin': 'daily-sleep-temperature-derivations',
};

/** `/1/user/-/profile.json`'s part the portal reads: the zone and its current offset (not data JSON). */
export async function profileAnswer(calls: GoogleHealthCalls) {
  const { zone, settings } = await userZone(calls);
  const offset = durationSeconds(settings.utcOffset);
  return { user: { timezone: zone, ...(offset === null ? {} : { offsetFromUTCMillis: offset * 1000 }) } };
}

/** The local day as physical instants [start, end) in the zone (1380 or 1500 minutes on DST days). */
export function dayRange(zone: string, date: string) {
  return {
    start: new Date(startOfLocalDay(zone, date)).toISOString(),
    end: new Date(startOfLocalDay(zone, addDays(date, 1))).toISOString(),
  };
}

const dateFilter = (member: string, start: string, end: string) =>
  `${member}.date >= "${start}" AND ${member}.date < "${addDays(end, 1)}"`;

const sampleFilter = (member: string, start: string, end: string) =>
  `${member}.sample_time.civil_time >= "${start}" AND ${member}.sample_time.civil_time < "${addDays(end, 1)}"`;

/** A daily type's points over the civil dates start..end. */
export const readDaily = (calls: GoogleHealthCalls, dataType: string, start: string, end: string) =>
  calls.list(dataType, dateFilter(dataType.replaceAll('-', '_'), start, end), 1000);

/**
 * Minutes per activity level: the activity-level dailyRollUp, else (⚠ §7.6:
 * not every source lists its roll-ups; Google answers 400) the list's
 * intervals by civil start time.
 */
async function readActivityLevels(calls: GoogleHealthCalls, start: string, end: string) {
  try {
    await calls.dailyRollUp('activity-level', start, end);
  } catch (err) {
    if (!(err instanceof GoogleCallFailed) || err.failure.status !== 400) throw err;
    await calls.list(
      'activity-level',
      `activity_level.interval.civil_start_time >= "${start}" AND activity_level.interval.civil_start_time < "${addDays(end, 1)}"`,
      10_000,
    );
  }
}

/** The daily roll-ups behind an activity resource over start..end (caloriesBMR: total and active). */
async function readActivityDaily(calls: GoogleHealthCalls, resource: string, start: string, end: string) {
  if (resource === 'caloriesBMR') {
    await calls.dailyRollUp('total-calories', start, end);
    await calls.dailyRollUp('active-energy-burned', start, end);
  } else if (ACTIVITY_TYPE[resource] === 'activity-level') await readActivityLevels(calls, start, end);
  else await calls.dailyRollUp(ACTIVITY_TYPE[resource]!, start, end);
}

/**
 * Weighings: the weight samples, and only when there are some, body fat
 * (its series and logs) and the latest height (BMI: weight over its square;
 * a list filtered on no start, so it pages back a month at a time to the
 * height, often entered once when the account was made: read only for BMI).
 */
async function readWeighings(
  calls: GoogleHealthCalls,
  start: string,
  end: string,
  need: { fat: boolean; bmi: boolean },
) {
  const weights = await calls.list('weight', sampleFilter('weight', start, end), 1000);
  if (weights.length === 0) return;
  if (need.fat) await calls.list('body-fat', sampleFilter('body_fat', start, end), 1000);
  if (need.bmi) await calls.list('height', `height.sample_time.civil_time < "${addDays(end, 1)}"`, 1);
}

/** Makes the Google calls that answer an allow-listed tracker path (`r` = the contract's parse of `path`). */
export async function readTracker(calls: GoogleHealthCalls, path: string, r: FitbitResource): Promise<void> {
  const start = r.start!;
  const end = r.end!;
  // Skin temperature is matched by its path as well as its kind.
  const kind = /^\/temp\/skin\/date\//.test(path) ? 'temp-skin' : r.kind;
  switch (kind) {
    case 'activity-series':
      return readActivityDaily(
        calls,
        /^\/activities\/(?:tracker\/)?(\w+)\/date\//.exec(path)![1]!,
        start,
        end,
      );
    case 'activity-day':
      for (const t of ['steps', 'distance', 'floors', 'altitude', 'total-calories', 'active-energy-burned'])
        await calls.dailyRollUp(t, start, start);
      await readActivityLevels(calls, start, start);
      await readDaily(calls, 'daily-resting-heart-rate', start, start);
      return;
    case 'activity-intraday': {
      const m = /^\/activities\/(\w+)\/date\/[\d-]+\/1d\/(\w+)/.exec(path)!;
      const { zone } = await userZone(calls);
      const day = dayRange(zone, start);
      await calls.rollUp(INTRADAY_TYPE[m[1]!]!, day.start, day.end, DETAIL_SECONDS[m[2]!]!);
      return;
    }
    case 'heart-intraday': {
      const detail = /\/1d\/(\w+)/.exec(path)![1]!;
      const { zone } = await userZone(calls);
      const day = dayRange(zone, start);
      if (detail === '1sec')
        await calls.list(
          'heart-rate',
          `heart_rate.sample_time.physical_time >= "${day.start}" AND heart_rate.sample_time.physical_time < "${day.end}"`,
          10_000,
        );
      else await calls.rollUp('heart-rate', day.start, day.end, DETAIL_SECONDS[detail]!);
      await readDaily(calls, 'daily-resting-heart-rate', start, start);
      return;
    }
    case 'sleep-range':
      // Attributed to the date the sleep ended (legacy dateOfSleep): the civil end, up to the day after (§3.10).
      await calls.list(
        'sleep',
        `sleep.interval.civil_end_time >= "${start}" AND sleep.interval.civil_end_time < "${addDays(end, 1)}"`,
        25,
      );
      return;
    case 'body-series': {
      const resource = /^\/body\/(\w+)\//.exec(path)![1];
      return readWeighings(calls, start, end, { fat: resource === 'fat', bmi: resource === 'bmi' });
    }
    case 'body-log': {
      const weightLog = /^\/body\/log\/weight\//.test(path);
      return readWeighings(calls, start, end, { fat: true, bmi: weightLog });
    }
    case 'foods-series':
      await calls.dailyRollUp(/\/caloriesIn\//.test(path) ? 'nutrition-log' : 'hydration-log', start, end);
      return;
    case 'hrv-intraday':
      // The nights ending start..end: their samples from noon the day before each to noon (the
      // legacy answer's wake-up dates; a main sleep spans midnight, not noon).
      await calls.list(
        'heart-rate-variability',
        `heart_rate_variability.sample_time.civil_time >= "${addDays(start, -1)}T12:00:00" AND heart_rate_variability.sample_time.civil_time < "${end}T12:00:00"`,
        10_000,
      );
      return;
    case 'heart-series':
    case 'spo2':
    case 'cardioscore':
    case 'hrv':
    case 'br':
    case 'temp-skin':
      await readDaily(calls, DAILY_TYPE[kind]!, start, end);
      return;
    default:
      // The paginated lists (activity log, sleep list) and a day's food log: not mapped yet.
      throw new UnsupportedResource(`${path} is not available through the Google Health API`);
  }
}
