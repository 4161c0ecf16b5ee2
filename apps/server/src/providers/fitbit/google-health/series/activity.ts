/*
 * Activity answers as series: a resource's daily values (steps, distance,
 * floors, elevation, calories, minutes per activity level), a range's series,
 * the activity day's summary and a day's intraday windows.
 */
import type { Series } from '@trialwear/contract';
import { datesBetween } from '@trialwear/zone';
import { ACTIVITY_METRICS } from '../../series-kit.js';
import { dateText, durationSeconds, type GoogleDate, num } from '../civil-time.js';
import { INTRADAY_TYPE } from '../google-reads.js';
import { type Json, list, obj, round } from '../payloads.js';
import { type Answered, type Ctx, dailySums, plain, pointAt, rollupDate, windowsByTime } from './answered.js';

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

export function activitySeries(c: Ctx): Series[] {
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
export function activityDay(c: Ctx): Series[] {
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

/** `/activities/{r}/date/{d}/1d/{detail}`: every window of the local day, 0 where Google has none. */
export function activityIntraday(c: Ctx): Series[] {
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
