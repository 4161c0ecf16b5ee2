import type { ChartSeries } from './chart-options';
import { CHART_SUBJECTS, type ChartSubjectKey } from './subjects';

/** A series drawn as its subject is everywhere (colour, kind and label from the one table). */
export function seriesFor(
  subject: ChartSubjectKey,
  values: ReadonlyArray<number | null>,
  overrides: Partial<Pick<ChartSeries, 'label' | 'colour'>> = {},
): ChartSeries {
  const s = CHART_SUBJECTS[subject];
  return { label: s.label, colour: s.colour, kind: s.kind, values, ...overrides };
}
