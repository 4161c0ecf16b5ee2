/*
 * The glucose step line (mg/dL) with the 70–180 target range shaded, drawn by
 * the shared TimeChart on the participant's displayed clock (x is displayTime
 * read as UTC, so the chart is drawn in UTC). Callers memoize `data`.
 */
import { GLUCOSE_RANGES } from '@trialwear/contract';
import { useMemo } from 'react';
import { CHART_SUBJECTS, seriesFor, TimeChart } from '../../../components/chart';
import type { LineData } from '../lib/line-data';

const TARGET = { from: GLUCOSE_RANGES.low, to: GLUCOSE_RANGES.high, label: 'Target 70–180 mg/dL' };

export function GlucoseChart({ data }: { data: LineData }) {
  const series = useMemo(() => [seriesFor('glucose', data.series[0]?.values ?? [])], [data]);
  return (
    <TimeChart
      x={data.x}
      series={series}
      y={{ unit: CHART_SUBJECTS.glucose.unit, min: 40, max: 400 }}
      timeZone="UTC"
      granularity="time"
      band={TARGET}
      height={300}
      title="Estimated glucose (target 70–180 mg/dL shaded)"
    />
  );
}
