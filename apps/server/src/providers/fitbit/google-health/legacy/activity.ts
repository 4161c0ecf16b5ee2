/*
 * The legacy activity resources: the daily series (steps, distance,
 * floors, elevation, calories, minutes per activity level) and a day's
 * summary, from the civil-day roll-ups. Legacy series list every day of
 * the range with "0" where there was no data; so do these.
 */

import type { FitbitResource } from '@trialwear/contract';
import { addDays, datesBetween } from '@trialwear/zone';
import { dateText, durationSeconds, type GoogleDate, num } from '../civil-time.js';
import { GoogleCallFailed, type GoogleHealthCalls } from '../google-http.js';
import { dailyValues, type Json, obj, rollupDate, round } from './google-payloads.js';
import { restingHeartRates } from './heart.js';

type ActivityResource =
  | 'steps'
  | 'distance'
  | 'floors'
  | 'elevation'
  | 'calories'
  | 'caloriesBMR'
  | 'activityCalories'
  | 'minutesSedentary'
  | 'minutesLightlyActive'
  | 'minutesFairlyActive'
  | 'minutesVeryActive';

const LEVEL_OF: Record<string, string> = {
  minutesSedentary: 'SEDENTARY',
  minutesLightlyActive: 'LIGHTLY_ACTIVE',
  minutesFairlyActive: 'MODERATELY_ACTIVE',
  minutesVeryActive: 'VERY_ACTIVE',
};

/**
 * Minutes per activity level per civil day: the activity-level dailyRollUp,
 * else (⚠ §7.6: not every source lists its roll-ups) the list's intervals
 * summed per civil start date. A date is absent when it has no data at all.
 */
async function activityLevels(
  calls: GoogleHealthCalls,
  start: string,
  end: string,
): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  const add = (date: string, level: string, minutes: number) => {
    const day = out.get(date) ?? new Map<string, number>();
    day.set(level, (day.get(level) ?? 0) + minutes);
    out.set(date, day);
  };
  try {
    for (const p of await calls.dailyRollUp('activity-level', start, end)) {
      const date = rollupDate(p);
      if (!date || p.activityLevel === undefined) continue;
      const rows = obj(p.activityLevel).activityLevelRollupsByActivityLevelType;
      for (const r of Array.isArray(rows) ? (rows as Json[]) : [])
        add(date, String(r.activityLevelType), (durationSeconds(r.totalDuration) ?? 0) / 60);
      if (!out.has(date)) out.set(date, new Map());
    }
  } catch (err) {
    if (!(err instanceof GoogleCallFailed) || err.failure.status !== 400) throw err;
    out.clear();
    const points = await calls.list(
      'activity-level',
      `activity_level.interval.civil_start_time >= "${start}" AND activity_level.interval.civil_start_time < "${addDays(end, 1)}"`,
      10_000,
    );
    for (const p of points) {
      const a = obj(p.activityLevel);
      const i = obj(a.interval);
      const date = dateText(obj(i.civilStartTime).date as GoogleDate | undefined);
      const seconds = (Date.parse(String(i.endTime)) - Date.parse(String(i.startTime))) / 1000;
      if (date && Number.isFinite(seconds)) add(date, String(a.activityLevelType), seconds / 60);
    }
  }
  return out;
}

/** The legacy minutes of one level per day (a day without data: sedentary all day, as legacy Fitbit counted it). */
async function activityLevelMinutes(calls: GoogleHealthCalls, start: string, end: string, resource: string) {
  const levels = await activityLevels(calls, start, end);
  const level = LEVEL_OF[resource]!;
  return new Map(
    datesBetween(start, end, 4000).map((d) => {
      const day = levels.get(d);
      if (!day) return [d, level === 'SEDENTARY' ? 1440 : 0] as const;
      return [d, Math.round(day.get(level) ?? 0)] as const;
    }),
  );
}

async function activityDaily(
  calls: GoogleHealthCalls,
  resource: ActivityResource,
  start: string,
  end: string,
): Promise<Map<string, number>> {
  switch (resource) {
    case 'steps':
      return dailyValues(calls, 'steps', start, end, (p) => num(p.countSum));
    case 'distance': {
      const mm = await dailyValues(calls, 'distance', start, end, (p) => num(p.millimetersSum));
      return new Map([...mm].map(([d, v]) => [d, round(v / 1e6, 6)]));
    }
    case 'floors':
      return dailyValues(calls, 'floors', start, end, (p) => num(p.countSum));
    case 'elevation': {
      const mm = await dailyValues(calls, 'altitude', start, end, (p) => num(p.gainMillimetersSum));
      // Metres with two decimals, as the legacy API gave them.
      return new Map([...mm].map(([d, v]) => [d, round(v / 1000, 2)]));
    }
    case 'calories':
      return rounded(await dailyValues(calls, 'total-calories', start, end, (p) => num(p.kcalSum)));
    case 'activityCalories':
      return rounded(await dailyValues(calls, 'active-energy-burned', start, end, (p) => num(p.kcalSum)));
    case 'caloriesBMR': {
      // The basal part of the day's burn: total − active (basal-energy-burned has no roll-up).
      const total = await activityDaily(calls, 'calories', start, end);
      const active = await activityDaily(calls, 'activityCalories', start, end);
      return new Map([...total].map(([d, v]) => [d, v - (active.get(d) ?? 0)]));
    }
    default:
      return activityLevelMinutes(calls, start, end, resource);
  }
}
const rounded = (m: Map<string, number>) => new Map([...m].map(([d, v]) => [d, Math.round(v)]));

export async function activitySeries(calls: GoogleHealthCalls, path: string, r: FitbitResource) {
  const m = /^\/activities\/(tracker\/)?(\w+)\/date\//.exec(path)!;
  const resource = m[2] as ActivityResource;
  const values = await activityDaily(calls, resource, r.start!, r.end!);
  return {
    [`activities-${m[1] ? 'tracker-' : ''}${resource}`]: datesBetween(r.start!, r.end!, 4000).map((d) => ({
      dateTime: d,
      value: String(values.get(d) ?? 0),
    })),
  };
}

/** `/activities/date/{date}.json`: the day's summary (goals and logged activities are not in the Google API). */
export async function activityDay(calls: GoogleHealthCalls, date: string) {
  const v = async (r: ActivityResource) => (await activityDaily(calls, r, date, date)).get(date) ?? 0;
  const [steps, distance, floors, elevation, calories, active, sedentary, lightly, fairly, very] = [
    await v('steps'),
    await v('distance'),
    await v('floors'),
    await v('elevation'),
    await v('calories'),
    await v('activityCalories'),
    await v('minutesSedentary'),
    await v('minutesLightlyActive'),
    await v('minutesFairlyActive'),
    await v('minutesVeryActive'),
  ];
  const rhr = (await restingHeartRates(calls, date, date)).get(date);
  return {
    activities: [],
    summary: {
      activityCalories: active,
      caloriesBMR: calories - active,
      caloriesOut: calories,
      steps,
      floors,
      elevation,
      sedentaryMinutes: sedentary,
      lightlyActiveMinutes: lightly,
      fairlyActiveMinutes: fairly,
      veryActiveMinutes: very,
      distances: [
        { activity: 'total', distance },
        { activity: 'tracker', distance },
      ],
      ...(rhr === undefined ? {} : { restingHeartRate: rhr }),
    },
  };
}
