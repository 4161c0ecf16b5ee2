/*
 * The points of the identifiable types, from the legacy day: the main
 * sleep, the auto-detected walk, and the day's food and water logs, each
 * with the legacy log's id so the same thing has the same id on both APIs.
 */

import { fitbitActivityLog } from '../../fitbit/fitbit-activity-log.js';
import { fitbitDay } from '../../fitbit/fitbit-daily.js';
import { duration } from '../gh-json.js';
import { atLocal, logEntry, sessionPoint } from './point-builders.js';
import { sleepSession } from './sleep-day.js';
import type { DayCtx, Pt } from './spec.js';

export function sleepPoints(c: DayCtx): Pt[] {
  const s = sleepSession(c.person, c.date);
  return s ? [sessionPoint(c, s, {})] : [];
}

export function exercisePoints(c: DayCtx): Pt[] {
  // The legacy auto-detected walk (days with 20 or more very active minutes), same id.
  const log = fitbitActivityLog(c.person.dataUserId, c.date);
  if (!log) return [];
  const start = atLocal(c, log.startTime.slice(11, 16));
  return [
    sessionPoint(
      c,
      { start, end: start + log.duration, id: String(log.logId) },
      {
        exerciseType: 'WALKING',
        displayName: log.activityName,
        activeDuration: duration(log.activeDuration / 1000),
        metricsSummary: {
          caloriesKcal: log.calories,
          distanceMillimeters: String(Math.round(log.distance * 1_000_000)),
          steps: String(log.steps),
          averageHeartRateBeatsPerMinute: String(log.averageHeartRate),
        },
        exerciseMetadata: { hasGps: false },
      },
    ),
  ];
}

export function nutritionPoints(c: DayCtx): Pt[] {
  // The legacy food log of the day: one "Daily meals" entry, same id (logged at 08:00 UTC-as-local).
  const kcal = fitbitDay(c.person.dataUserId, c.date).caloriesIn;
  if (!kcal) return [];
  return logEntry(
    c,
    '08:00:00',
    30,
    { foodDisplayName: 'Daily meals', mealType: 'ANYTIME', energy: { kcal } },
    kcal,
  );
}

export function hydrationPoints(c: DayCtx): Pt[] {
  const ml = fitbitDay(c.person.dataUserId, c.date).waterMl;
  if (!ml) return [];
  return logEntry(
    c,
    '12:00:00',
    1,
    { amountConsumed: { milliliters: ml, userProvidedUnit: 'MILLILITERS' } },
    ml,
  );
}
