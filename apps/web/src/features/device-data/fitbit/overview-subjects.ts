import type { SummarySubject, WindowStats } from '@trialwear/contract';
import { FITBIT_SUBJECTS, type FitbitSubjectKey } from './fitbit-subjects';

/** Each overview subject is shown as the data page's subject (label, unit, conversion, chart). */
export const OVERVIEW_SUBJECT: Record<SummarySubject, FitbitSubjectKey> = {
  steps: 'steps',
  distance: 'distance',
  floors: 'floors',
  restingHeartRate: 'restingHeartRate',
  sleepDuration: 'duration',
  weight: 'weight',
};

export interface SevenVsSeven {
  last: number | null;
  previous: number | null;
  /** last − previous in display units, and in percent of previous; null without both. */
  change: number | null;
  changePct: number | null;
}

const r2 = (n: number) => Math.round(n * 100) / 100;
/** Counted subjects: a change of 814.17 steps reads as 814. */
const COUNTED: ReadonlySet<SummarySubject> = new Set(['steps', 'floors']);

/** The last 7 days' daily average against the previous 7 days', in display units. */
export function sevenVsSeven(
  subject: SummarySubject,
  last7: WindowStats,
  previous7: WindowStats,
): SevenVsSeven {
  const show = FITBIT_SUBJECTS[OVERVIEW_SUBJECT[subject]].display as (v: number) => number;
  const last = last7.average === null ? null : show(last7.average);
  const previous = previous7.average === null ? null : show(previous7.average);
  if (last === null || previous === null) return { last, previous, change: null, changePct: null };
  return {
    last,
    previous,
    change: COUNTED.has(subject) ? Math.round(last - previous) : r2(last - previous),
    changePct: previous === 0 ? null : Math.round(((last - previous) / previous) * 1000) / 10,
  };
}
