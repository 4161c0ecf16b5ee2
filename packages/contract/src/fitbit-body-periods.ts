/* Fitbit's body time series by period: which days a period covers, and the one period a range needs. */

import { addDays, addMonths } from '@trialwear/zone';

/**
 * The periods of Fitbit's "Get Body Time Series by Date"
 * (`/body/{bmi|fat|weight}/date/{date}/{period}.json`): the days ending at
 * `{date}`, one call whatever the period (issue #21 §3: a year of weight is
 * one call, where the range form and the log allow 31 days).
 */
export const FITBIT_BODY_PERIODS = ['1d', '7d', '30d', '1w', '1m', '3m', '6m', '1y', 'max'] as const;
export type FitbitBodyPeriod = (typeof FITBIT_BODY_PERIODS)[number];
/** How far back `max` reaches here (the simulators bound it the same way): three years. */
export const FITBIT_BODY_MAX_DAYS = 1095;

/**
 * The first day a body period ending at `date` covers: 1d/7d/1w/30d that many
 * days, 1m/3m/6m/1y whole calendar months back (the day after `date` one
 * month earlier, as the data page's periods), max FITBIT_BODY_MAX_DAYS.
 */
export function fitbitBodyPeriodStart(date: string, period: FitbitBodyPeriod): string {
  switch (period) {
    case '1d':
      return date;
    case '7d':
    case '1w':
      return addDays(date, -6);
    case '30d':
      return addDays(date, -29);
    case '1m':
      return addDays(addMonths(date, -1), 1);
    case '3m':
      return addDays(addMonths(date, -3), 1);
    case '6m':
      return addDays(addMonths(date, -6), 1);
    case '1y':
      return addDays(addMonths(date, -12), 1);
    case 'max':
      return addDays(date, -(FITBIT_BODY_MAX_DAYS - 1));
  }
}

/** The smallest body period ending at `end` that covers `start` (null: longer than `max`). */
export function fitbitBodyPeriodFor(start: string, end: string): FitbitBodyPeriod | null {
  for (const p of ['7d', '30d', '3m', '6m', '1y', 'max'] as const)
    if (fitbitBodyPeriodStart(end, p) <= start) return p;
  return null;
}
