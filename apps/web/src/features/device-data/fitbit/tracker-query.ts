/*
 * The tracker data query of a page (core §3 "tracker data query": category,
 * subject, period, startDate, endDate) kept in the URL's search string, so a
 * reload or a shared link shows the same data. Defaults: overview, last 7 days.
 */
import { PERIODS } from '@trialwear/contract';
import {
  FITBIT_SUBJECTS,
  type FitbitSubjectKey,
  isSubject,
  TRACKER_CATEGORIES,
  type TrackerCategory,
} from './fitbit-subjects';
import { type Period, periodRange, periodsFor } from './periods';

export interface TrackerQuery {
  category: TrackerCategory;
  /** One subject of the category, or null for all of them. */
  subject: FitbitSubjectKey | null;
  period: Period;
  startDate: string;
  endDate: string;
}

const isCategory = (c: string | null): c is TrackerCategory =>
  !!c && (TRACKER_CATEGORIES as readonly string[]).includes(c);
const isPeriod = (p: string | null): p is Period => !!p && (PERIODS as readonly string[]).includes(p);

export function parseTrackerQuery(params: URLSearchParams): TrackerQuery {
  const subjectParam = params.get('subject');
  const subject = isSubject(subjectParam) ? subjectParam : null;
  const categoryParam = params.get('category');
  const category = subject
    ? FITBIT_SUBJECTS[subject].category
    : isCategory(categoryParam)
      ? categoryParam
      : 'overview';
  const periodParam = params.get('period');
  const period =
    isPeriod(periodParam) && periodsFor(subject ?? '').includes(periodParam) ? periodParam : '7d';
  return {
    category,
    subject,
    period,
    startDate: params.get('start') ?? '',
    endDate: params.get('end') ?? '',
  };
}

export function trackerSearch(q: TrackerQuery): string {
  const p = new URLSearchParams({ category: q.category, period: q.period });
  if (q.subject) p.set('subject', q.subject);
  if (q.period === 'customDates') {
    p.set('start', q.startDate);
    p.set('end', q.endDate);
  }
  return `?${p.toString()}`;
}

/** The dates a query covers; null for custom dates not (yet) valid. */
export function queryRange(q: TrackerQuery, today: string): { start: string; end: string } | null {
  if (q.period !== 'customDates') return periodRange(q.period, today);
  if (!q.startDate || !q.endDate || q.endDate < q.startDate || q.endDate > today) return null;
  return { start: q.startDate, end: q.endDate };
}
