/*
 * The local summary record (core §3): per subject, the last 7 local days
 * (ending on the participant's local today) against the 7 days before.
 * `days` counts days with a value, a 0 included (the provider reported it);
 * a day without a record is null in the series given here and is left out
 * (`providers/fitbit/overview.ts`, the data dictionary's no_data_vs_zero).
 */

import {
  type DayValue,
  type LocalSummary,
  SUMMARY_SUBJECTS,
  SUMMARY_UNITS,
  type SummarySubject,
  type WindowStats,
} from '@trialwear/contract';
import { datesEnding } from '@trialwear/zone';

/** Totals keep 3 decimals (distance comes in km with 3): only float noise is dropped. */
const round = (n: number, decimals: number) => Math.round(n * 10 ** decimals) / 10 ** decimals;

export function windowStats(
  values: ReadonlyMap<string, number | null>,
  dates: readonly string[],
): WindowStats {
  const present = dates.map((d) => values.get(d)).filter((v): v is number => typeof v === 'number');
  const total = present.length
    ? round(
        present.reduce((s, v) => s + v, 0),
        3,
      )
    : null;
  return {
    from: dates[0]!,
    to: dates[dates.length - 1]!,
    days: present.length,
    total,
    average: total === null ? null : round(total / present.length, 2),
  };
}

export function localSummary(
  participantId: number,
  timeZone: string,
  today: string,
  series: Record<SummarySubject, DayValue[]>,
  computedAt: Date,
): LocalSummary {
  const days = datesEnding(today, 14);
  const previous = days.slice(0, 7);
  const last = days.slice(7);
  const subjects = {} as LocalSummary['subjects'];
  for (const subject of SUMMARY_SUBJECTS) {
    const values = new Map(series[subject].map((d) => [d.date, d.value]));
    subjects[subject] = {
      unit: SUMMARY_UNITS[subject],
      last7: windowStats(values, last),
      previous7: windowStats(values, previous),
    };
  }
  return { participantId, timeZone, computedAt: computedAt.toISOString(), subjects };
}
