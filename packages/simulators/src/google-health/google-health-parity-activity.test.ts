/*
 * One person, two APIs (issue #13): for 30 days spanning a DST change, the
 * Google Health simulator's values equal the legacy Fitbit generator's for
 * the same local date: activity daily roll-ups, active energy, food and
 * water logs, exercise sessions, and the calories of each minute.
 */

import { addDays } from '@trialwear/zone';
import { describe, expect, it } from 'vitest';
import { fitbitActivityLog } from '../fitbit/fitbit-activity-log.js';
import { fitbitDay } from '../fitbit/fitbit-daily.js';
import { fitbitUserId, fitbitUserTimezone } from '../fitbit/fitbit-data.js';
import { calorieCents } from './data-types/activity-day.js';
import { DEFAULT_CONFIG as GOOGLE_HEALTH_DEFAULT } from './gh-config.js';
import {
  civilText,
  DAYS,
  daily,
  dateOf,
  FIRST,
  healthUserId,
  LAST,
  legacy,
  sim,
  token,
  useParitySuite,
} from './parity-suite.js';
import { People } from './person.js';
import { api, type Json, LEGACY_CLIENT, listAll } from './test-kit.js';

describe(
  'Google Health simulator: the same person as the legacy Fitbit simulator, activity, calories, food, water and exercise',
  { timeout: 30_000 },
  () => {
    useParitySuite();

    it('activity daily roll-ups equal the legacy day: steps, distance, floors, elevation, calories, activity levels', async () => {
      const [steps, distance, floors, altitude, calories, levels, active] = await Promise.all(
        ['steps', 'distance', 'floors', 'altitude', 'total-calories', 'activity-level', 'active-minutes'].map(
          daily,
        ),
      );
      let worn = 0;
      for (const date of DAYS) {
        const d = fitbitDay(legacy, date);
        // Calories exist every day (the basal part even when the tracker is not worn).
        expect(calories!.get(date).kcalSum, date).toBe(d.calories);
        if (!d.worn) {
          // No tracker data at all: the legacy API said 0 steps and 1440 sedentary minutes.
          for (const m of [steps, distance, floors, altitude, levels, active])
            expect(m!.get(date), date).toBeUndefined();
          continue;
        }
        worn++;
        expect(Number(steps!.get(date).countSum), date).toBe(d.steps);
        expect(Number(distance!.get(date).millimetersSum) / 1_000_000, date).toBe(d.distanceKm);
        expect(Number(floors!.get(date)?.countSum ?? 0), date).toBe(d.floors);
        expect(
          Math.round((Number(altitude!.get(date)?.gainMillimetersSum ?? 0) / 1000) * 100) / 100,
          date,
        ).toBe(Math.round(d.floors * 3.048 * 100) / 100);
        const byLevel = Object.fromEntries(
          levels!
            .get(date)
            .activityLevelRollupsByActivityLevelType.map((x: Json) => [
              x.activityLevelType,
              Number(String(x.totalDuration).replace('s', '')) / 60,
            ]),
        );
        expect(byLevel, date).toEqual({
          SEDENTARY: d.minutesSedentary,
          LIGHTLY_ACTIVE: d.minutesLightlyActive,
          ...(d.minutesFairlyActive && { MODERATELY_ACTIVE: d.minutesFairlyActive }),
          ...(d.minutesVeryActive && { VERY_ACTIVE: d.minutesVeryActive }),
        });
        const am = Object.fromEntries(
          active!
            .get(date)
            .activeMinutesRollupByActivityLevel.map((x: Json) => [
              x.activityLevel,
              Number(x.activeMinutesSum),
            ]),
        );
        expect(am.LIGHT, date).toBe(d.minutesLightlyActive);
        expect(am.MODERATE ?? 0, date).toBe(d.minutesFairlyActive);
        expect(am.VIGOROUS ?? 0, date).toBe(d.minutesVeryActive);
      }
      expect(worn).toBeGreaterThan(20);
    });

    it('activity calories, food and water: active-energy-burned = calories − BMR; nutrition and hydration logs', async () => {
      const [active, food, water] = await Promise.all(
        ['active-energy-burned', 'nutrition-log', 'hydration-log'].map(daily),
      );
      for (const date of DAYS) {
        const d = fitbitDay(legacy, date);
        expect(active!.get(date)?.kcalSum ?? 0, date).toBe(d.calories - d.caloriesBMR);
        expect(food!.get(date)?.energy.kcalSum ?? 0, date).toBe(d.caloriesIn);
        expect(water!.get(date)?.amountConsumed.millilitersSum ?? 0, date).toBe(d.waterMl);
      }
      const logs = await listAll(sim, token, 'nutrition-log', {
        filter: `nutrition_log.interval.civil_start_time >= "${FIRST}" AND nutrition_log.interval.civil_start_time < "${addDays(LAST, 1)}"`,
      });
      for (const p of logs.points) {
        const date = dateOf(p.nutritionLog.interval.civilStartTime.date);
        expect(p.name).toBe(
          `users/${healthUserId}/dataTypes/nutrition-log/dataPoints/${Date.parse(`${date}T08:00:00Z`)}`,
        );
        expect(p.nutritionLog).toMatchObject({
          foodDisplayName: 'Daily meals',
          energy: { kcal: fitbitDay(legacy, date).caloriesIn },
        });
      }
    });

    it('exercise: the legacy auto-detected walks, same id, start, duration, steps, distance and calories', async () => {
      const { points } = await listAll(sim, token, 'exercise', {
        filter: `exercise.interval.civil_start_time >= "${FIRST}" AND exercise.interval.civil_start_time < "${addDays(LAST, 1)}"`,
      });
      const expected = DAYS.map((d) => fitbitActivityLog(legacy, d)).filter((x) => x !== null);
      expect(points.length).toBe(expected.length);
      for (const log of expected) {
        const p = points.find((x: Json) => x.name.endsWith(`/${log!.logId}`));
        expect(p, String(log!.logId)).toBeDefined();
        const e = p.exercise;
        expect(civilText(e.interval.civilStartTime)).toBe(log!.startTime.slice(0, 19));
        expect(Date.parse(e.interval.endTime) - Date.parse(e.interval.startTime)).toBe(log!.duration);
        expect(e).toMatchObject({
          exerciseType: 'WALKING',
          displayName: 'Walk',
          activeDuration: `${log!.activeDuration / 1000}s`,
        });
        expect(e.metricsSummary).toEqual({
          caloriesKcal: log!.calories,
          distanceMillimeters: String(Math.round(log!.distance * 1_000_000)),
          steps: String(log!.steps),
          averageHeartRateBeatsPerMinute: String(log!.averageHeartRate),
        });
        const got = await api(sim, token, `/v4/users/me/dataTypes/exercise/dataPoints/${log!.logId}`);
        expect(got.body).toEqual(p);
      }
    });

    it('calories per minute: never negative active energy, every day sums exactly (3 people, 120 days)', () => {
      const people = new People();
      for (const seed of ['A1', 'B2', 'C3']) {
        const person = people.forLegacy(fitbitUserId(`${LEGACY_CLIENT}:${seed}`));
        const tz = fitbitUserTimezone(person.dataUserId).tz;
        for (let i = 0; i < 120; i++) {
          const date = addDays('2026-08-01', i);
          const d = fitbitDay(person.dataUserId, date);
          const minutes = calorieCents({ person, date, tz, config: GOOGLE_HEALTH_DEFAULT });
          expect(minutes.every((m) => m.active >= 0 && m.total > 0)).toBe(true);
          expect(minutes.reduce((n, m) => n + m.total, 0)).toBe(d.calories * 100);
          expect(minutes.reduce((n, m) => n + m.active, 0)).toBe((d.calories - d.caloriesBMR) * 100);
        }
      }
    });
  },
);
