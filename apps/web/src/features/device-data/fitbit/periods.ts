/*
 * Periods of the tracker query (core §9) and the form's rules (core §5),
 * pure so that every message is unit-tested. Dates are calendar dates
 * (YYYY-MM-DD); "today" is passed in so the rules do not read the clock.
 */
import { PERIODS, TRACKER_FORM_MESSAGES, VO2_PERIODS } from '@trialwear/contract';
import { addDays, addMonths, localDate, runtimeZone } from '@trialwear/zone';

export type Period = (typeof PERIODS)[number];

export const PERIOD_LABELS: Record<Period, string> = {
  '1d': 'Today',
  '7d': 'Week',
  '30d': '30 Days',
  '1m': '1 Month',
  '3m': '3 Months',
  '6m': '6 Months',
  '1y': '1 Year',
  customDates: 'Custom dates',
};

/** VO2 max offers only Today, Week and 30 Days; every other subject all periods but 30 Days. */
export const periodsFor = (subject: string): readonly Period[] =>
  subject === 'vo2Max' ? VO2_PERIODS : PERIODS.filter((p) => p !== '30d');

/** The local date today in a zone (the browser's when none is given). */
export const todayIn = (timeZone?: string, now = new Date()): string =>
  localDate(timeZone ?? runtimeZone(), now);

/** First and last date of a named period ending today (both included). */
export function periodRange(period: Exclude<Period, 'customDates'>, today: string) {
  switch (period) {
    case '1d':
      return { start: today, end: today };
    case '7d':
      return { start: addDays(today, -6), end: today };
    case '30d':
      return { start: addDays(today, -29), end: today };
    case '1m':
      return { start: addDays(addMonths(today, -1), 1), end: today };
    case '3m':
      return { start: addDays(addMonths(today, -3), 1), end: today };
    case '6m':
      return { start: addDays(addMonths(today, -6), 1), end: today };
    case '1y':
      return { start: addDays(addMonths(today, -12), 1), end: today };
  }
}

export interface TrackerFormValues {
  period: Period | '';
  startDate: string;
  endDate: string;
}

export type TrackerFormErrors = Partial<Record<'period' | 'startDate' | 'endDate', string>>;

/** Core §5: a period; for custom dates a start and an end date, none in the future, end not before start. */
export function validateTrackerForm(v: TrackerFormValues, today: string): TrackerFormErrors {
  const e: TrackerFormErrors = {};
  if (!v.period) {
    e.period = TRACKER_FORM_MESSAGES.period;
    return e;
  }
  if (v.period !== 'customDates') return e;
  if (!v.startDate) e.startDate = TRACKER_FORM_MESSAGES.startDate;
  else if (v.startDate > today) e.startDate = TRACKER_FORM_MESSAGES.future;
  if (!v.endDate) e.endDate = TRACKER_FORM_MESSAGES.endDate;
  else if (v.endDate > today) e.endDate = TRACKER_FORM_MESSAGES.future;
  else if (v.startDate && v.endDate < v.startDate) e.endDate = TRACKER_FORM_MESSAGES.endBeforeStart;
  return e;
}

/** One day's optional time window (heart, foods): both times or neither. */
export function validateTimeWindow(startTime: string, endTime: string): string | null {
  if (Boolean(startTime) !== Boolean(endTime)) return TRACKER_FORM_MESSAGES.time;
  return null;
}

/** Consecutive sub-ranges of at most `maxDays` days (the provider's longest range per request). */
export function splitRange(
  start: string,
  end: string,
  maxDays: number,
): Array<{ start: string; end: string }> {
  const out: Array<{ start: string; end: string }> = [];
  for (let s = start; s <= end; s = addDays(s, maxDays)) {
    const e = addDays(s, maxDays - 1);
    out.push({ start: s, end: e < end ? e : end });
  }
  return out;
}
