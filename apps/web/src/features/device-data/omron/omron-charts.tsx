/*
 * The Omron charts, drawn by the shared TimeChart: blood pressure (systolic
 * and diastolic lines, mmHg), weight (a line, Lbs), and several participants
 * on one metric (one line each, palette colours). x is the participant's wall
 * clock read as UTC, so the chart is drawn in UTC: axis and tooltip show the
 * time the participant saw (Omron gives an offset per reading, not a zone).
 * Callers memoize `data`: a new object rebuilds the chart.
 */
import { useMemo } from 'react';
import { CHART_SUBJECTS, SERIES_PALETTE, seriesFor, TimeChart } from '../../../components/chart';
import type { LineData } from '../lib/line-data';

const WALL_CLOCK_ZONE = 'UTC';

export function BloodPressureChart({ data, title = 'Blood pressure' }: { data: LineData; title?: string }) {
  const series = useSeries(data, BP_SUBJECTS);
  return (
    <TimeChart
      x={data.x}
      series={series}
      y={{ unit: CHART_SUBJECTS.systolic.unit }}
      timeZone={WALL_CLOCK_ZONE}
      granularity="time"
      title={title}
    />
  );
}

export function WeightChart({ data, title = 'Weight' }: { data: LineData; title?: string }) {
  const series = useSeries(data, WEIGHT_SUBJECTS);
  return (
    <TimeChart
      x={data.x}
      series={series}
      y={{ unit: CHART_SUBJECTS.weight.unit }}
      timeZone={WALL_CLOCK_ZONE}
      granularity="time"
      title={title}
    />
  );
}

/** Several participants, one line each (daily values), coloured by position (the legend names them). */
export function ParticipantsChart({ data, unit, title }: { data: LineData; unit: string; title: string }) {
  const series = useMemo(
    () =>
      data.series.map((s, i) => ({
        label: s.label,
        values: s.values,
        colour: SERIES_PALETTE[i % SERIES_PALETTE.length]!,
        kind: 'line' as const,
      })),
    [data],
  );
  return (
    <TimeChart
      x={data.x}
      series={series}
      y={{ unit }}
      timeZone={WALL_CLOCK_ZONE}
      granularity="days"
      title={title}
      legend
    />
  );
}

type OmronSubject = 'systolic' | 'diastolic' | 'weight';
const BP_SUBJECTS: readonly OmronSubject[] = ['systolic', 'diastolic'];
const WEIGHT_SUBJECTS: readonly OmronSubject[] = ['weight'];

/** Line i is drawn as subjects[i] is everywhere (colour, kind from the shared table). */
function useSeries(data: LineData, subjects: readonly OmronSubject[]) {
  return useMemo(
    () => data.series.map((s, i) => seriesFor(subjects[i] ?? 'weight', s.values, { label: s.label })),
    [data, subjects],
  );
}
