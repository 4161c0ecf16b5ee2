/*
 * The points of the activity types, from the legacy day:
 *
 * - steps, distance, floors, altitude: one interval per minute with
 *   activity, from `fitbitIntradaySteps`; the day's sum is the legacy day's
 *   value (distance: the legacy per-minute metres, the day's rounding spread
 *   1 m at a time over the last minutes so the sum is the legacy total);
 * - total-calories (roll-ups only) and active-energy-burned: per minute,
 *   from `calorieCents`, so the day sums to `calories` (and
 *   `activityCalories`);
 * - activity-level and active-minutes: intervals whose durations per level
 *   are the legacy sedentary / lightly / fairly / very active minutes.
 *
 * Days the legacy user did not wear the tracker have no tracker points
 * (legacy answers 0 steps and 1440 sedentary minutes on them); total-calories
 * still has the basal calories.
 */
import { fitbitDay } from '../../fitbit/fitbit-daily.js';
import { ACTIVE_MINUTES_LEVEL, activityChunks, calorieCents } from './activity-day.js';
import { spread, stepMinutes, sum } from './legacy-day.js';
import { levelInterval, minutePoint } from './point-builders.js';
import type { DayCtx, Pt } from './spec.js';

export function stepsPoints(c: DayCtx): Pt[] {
  const minutes = stepMinutes(c);
  const out = minutes.map(({ t, s }) => minutePoint(c, t, { count: String(s) }, s));
  if (c.config.phoneSteps) {
    // The phone counts most of the same walking, minute by minute: overlapping, never summed by Google.
    for (const { m, t, s } of minutes)
      if (m % 3 !== 0)
        out.push(minutePoint(c, t, { count: String(Math.round(s * 0.8)) }, Math.round(s * 0.8), 'phone'));
  }
  return out;
}

export function distancePoints(c: DayCtx): Pt[] {
  const d = fitbitDay(c.person.dataUserId, c.date);
  const minutes = stepMinutes(c);
  const stride = d.distanceKm / Math.max(1, d.steps);
  // The legacy per-minute distance (whole metres), the day's rounding spread so the sum is the legacy total.
  const mm = minutes.map(({ s }) => Math.round(s * stride * 1000) * 1000);
  spread(mm, Math.round(d.distanceKm * 1_000_000) - sum(mm), 1000);
  return minutes.map(({ t }, i) => minutePoint(c, t, { millimeters: String(mm[i]) }, mm[i]!));
}

/** One point per floor climbed, on the day's first walking minutes (3.048 m each, as the legacy elevation). */
const climbPoints =
  (fields: Record<string, unknown>, n: number) =>
  (c: DayCtx): Pt[] =>
    stepMinutes(c)
      .slice(0, fitbitDay(c.person.dataUserId, c.date).floors)
      .map(({ t }) => minutePoint(c, t, fields, n));
export const floorsPoints = climbPoints({ count: '1' }, 1);
export const altitudePoints = climbPoints({ gainMillimeters: '3048' }, 3048);

export const totalCaloriesPoints = (c: DayCtx): Pt[] =>
  calorieCents(c).map(({ t, total }) => minutePoint(c, t, {}, total));

export const activeEnergyPoints = (c: DayCtx): Pt[] =>
  calorieCents(c)
    .filter((x) => x.active !== 0)
    .map(({ t, active }) => minutePoint(c, t, { kcal: active / 100 }, active));

export const activityLevelPoints = (c: DayCtx): Pt[] =>
  activityChunks(c.person.dataUserId, c.date, c.tz).map((x) =>
    levelInterval(c, x, { activityLevelType: x.level }, x.level),
  );

export const activeMinutesPoints = (c: DayCtx): Pt[] =>
  activityChunks(c.person.dataUserId, c.date, c.tz).flatMap((x) => {
    const level = ACTIVE_MINUTES_LEVEL[x.level];
    if (!level) return [];
    const fields = {
      activeMinutesByActivityLevel: [{ activityLevel: level, activeMinutes: String(x.minutes.length) }],
    };
    return [levelInterval(c, x, fields, level)];
  });
