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

/**
 * Decimals of each subject's averages and change as the tile shows them: steps are counted (814,
 * not 814.17), floors averaged to a tenth (10.8 against 11 is a change of -0.2, not -0), weight to
 * the tenth of the spec's kg → lb conversion, resting heart rate to a tenth of a bpm, sleep to the
 * minute, miles to the hundredth as the conversion gives them.
 */
const DECIMALS: Record<SummarySubject, number> = {
  steps: 0,
  floors: 1,
  distance: 2,
  restingHeartRate: 1,
  sleepDuration: 0,
  weight: 1,
};

/** Subjects whose daily value is a day's total (steps a day); weight and resting heart rate are levels. */
const DAILY_TOTALS: ReadonlySet<SummarySubject> = new Set(['steps', 'floors', 'distance', 'sleepDuration']);
export const isDailyTotal = (subject: SummarySubject) => DAILY_TOTALS.has(subject);

/** Rounded to `decimals`; never "-0". */
function round(n: number, decimals: number): number {
  const f = 10 ** decimals;
  const r = Math.round(n * f) / f;
  return r === 0 ? 0 : r;
}

/**
 * The last 7 days' daily average against the previous 7 days', in display units and rounded as
 * the tile shows them; the change is the difference of the two figures shown, the percent that of
 * the averages themselves.
 */
export function sevenVsSeven(
  subject: SummarySubject,
  last7: WindowStats,
  previous7: WindowStats,
): SevenVsSeven {
  const show = FITBIT_SUBJECTS[OVERVIEW_SUBJECT[subject]].display as (v: number) => number;
  const decimals = DECIMALS[subject];
  const exactLast = last7.average === null ? null : show(last7.average);
  const exactPrevious = previous7.average === null ? null : show(previous7.average);
  const last = exactLast === null ? null : round(exactLast, decimals);
  const previous = exactPrevious === null ? null : round(exactPrevious, decimals);
  if (last === null || previous === null || exactLast === null || exactPrevious === null)
    return { last, previous, change: null, changePct: null };
  return {
    last,
    previous,
    change: round(last - previous, decimals),
    changePct: exactPrevious === 0 ? null : round(((exactLast - exactPrevious) / exactPrevious) * 100, 1),
  };
}
