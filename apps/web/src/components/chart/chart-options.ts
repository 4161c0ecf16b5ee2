/*
 * Pure construction of uPlot options and data from the chart's props (kept
 * apart from the React wrapper so that it can be unit-tested without a DOM).
 */
import uPlot from 'uplot';
import type { ChartKind } from './subjects';

export interface ChartSeries {
  label: string;
  /** One value per x; null = no value (a gap, never drawn as 0). */
  values: ReadonlyArray<number | null>;
  colour: string;
  kind: ChartKind;
}

export interface ChartAxis {
  /** Shown beside the axis and after each value in the tooltip, e.g. 'bpm'. */
  unit: string;
  /** Fixed range; by default uPlot fits the data. */
  min?: number;
  max?: number;
}

export interface ChartBand {
  from: number;
  to: number;
  colour?: string;
  label?: string;
}

/** x in unix seconds: ticks and tooltips show wall-clock time in `timeZone` (the participant's). */
export function localDateFn(timeZone: string): (ts: number) => Date {
  if (timeZone === 'UTC') return (ts) => uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC');
  return (ts) => uPlot.tzDate(new Date(ts * 1e3), timeZone);
}

function pathsFor(kind: ChartKind, pointCount: number): uPlot.Series.PathBuilder | undefined {
  if (kind === 'bars')
    // Bars as wide as the plot allows for few points (daily totals), a pixel or so for many.
    return uPlot.paths.bars?.({ size: [0.7, pointCount > 60 ? 8 : 60], align: 0 });
  if (kind === 'step') return uPlot.paths.stepped?.({ align: 1 });
  return undefined; // uPlot's default: linear, decimated per pixel for large series
}

export function formatValue(v: number | null | undefined, unit: string): string {
  if (v === null || v === undefined) return '—';
  // Counts in the thousands as integers; rates and weights keep their decimals (236.6 Lbs, 67.33 bpm).
  const rounded = Math.abs(v) >= 1000 ? Math.round(v) : Math.round(v * 100) / 100;
  return `${rounded.toLocaleString('en-US')} ${unit}`;
}

const DAY = 86_400;
/** Tick steps of a date axis: whole days, weeks, months, years (never a time within a day). */
const DAY_INCRS = [
  DAY,
  2 * DAY,
  3 * DAY,
  7 * DAY,
  14 * DAY,
  30 * DAY,
  61 * DAY,
  91 * DAY,
  182 * DAY,
  365 * DAY,
];

/**
 * The x range showing all data: bars are centred on their x, so half a step
 * is added on both sides to keep the first and last bar whole.
 */
export function fullXRange(x: readonly number[], series: readonly ChartSeries[]) {
  // x is ascending (uPlot needs it), so its ends are its extent.
  const min = x[0] ?? 0;
  const max = x[x.length - 1] ?? 0;
  if (!series.some((s) => s.kind === 'bars')) return { min, max: max === min ? min + 1 : max };
  const half = x.length > 1 ? (max - min) / (x.length - 1) / 2 : DAY / 2;
  return { min: min - half, max: max + half };
}

export interface BuildOptionsInput {
  width: number;
  height: number;
  series: readonly ChartSeries[];
  y: ChartAxis;
  timeZone: string;
  band?: ChartBand;
  /** x spacing: 'days' shows dates only on the axis. */
  xGranularity: 'days' | 'time';
  /** The x range of all data (see fullXRange). */
  xRange: { min: number; max: number };
  hooks?: uPlot.Hooks.Arrays;
}

/** The lowest and highest value of every series, nulls left out (null when there is none). */
export function valueExtent(series: readonly ChartSeries[]): { min: number; max: number } | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const s of series)
    for (const v of s.values) {
      if (v === null || v === undefined) continue;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  return min <= max ? { min, max } : null;
}

export function buildOptions(input: BuildOptionsInput): uPlot.Options {
  const { series, y, band } = input;
  const n = series[0]?.values.length ?? 0;
  const anyBars = series.some((s) => s.kind === 'bars');
  // With all data in view the y axis holds every plotted value (issue #26: the newest, highest blood
  // pressure ran off the top): from the data itself, not from uPlot's min and max of the points it
  // found in its x window.
  const extent = valueExtent(series);
  return {
    width: input.width,
    height: input.height,
    tzDate: localDateFn(input.timeZone),
    // Our own tooltip (time-chart.tsx) replaces the legend row.
    legend: { show: false },
    cursor: {
      drag: { x: true, y: false, setScale: true },
      points: { size: 6 },
    },
    scales: {
      // All data at first (bars kept whole); a drag or the wheel zooms, Reset zoom comes back here.
      x: { time: true, range: () => [input.xRange.min, input.xRange.max] },
      y: {
        auto: y.min === undefined || y.max === undefined,
        range: (u, dMin, dMax) => {
          // Zoomed in (x narrower than all data): fit the points in view, as uPlot found them.
          const x = (u as uPlot | null)?.scales?.x;
          const zoomed =
            x?.min != null && x.max != null && (x.min > input.xRange.min || x.max < input.xRange.max);
          const dataMin = zoomed ? dMin : Math.min(extent?.min ?? dMin, dMin);
          const dataMax = zoomed ? dMax : Math.max(extent?.max ?? dMax, dMax);
          const lo = y.min ?? (anyBars ? Math.min(0, dataMin) : dataMin);
          let hi = y.max ?? dataMax;
          if (band) hi = Math.max(hi, band.to);
          const lo2 = band ? Math.min(lo, band.from) : lo;
          const pad = hi === lo2 ? 1 : (hi - lo2) * 0.05;
          return [y.min ?? (anyBars && lo2 >= 0 ? 0 : lo2 - pad), y.max ?? hi + pad];
        },
      },
    },
    axes: [
      input.xGranularity === 'days'
        ? {
            incrs: DAY_INCRS,
            values: [
              // [min tick spacing s, format when a tick starts a year, …] kept to dates
              [3600 * 24 * 365, '{YYYY}', null, null, null, null, null, null, 1],
              [3600 * 24 * 28, '{MMM} {YYYY}', null, null, null, null, null, null, 1],
              [3600 * 24, '{M}/{D}', '\n{YYYY}', null, null, null, null, null, 1],
              [1, '{M}/{D}', '\n{YYYY}', null, null, null, null, null, 1],
            ],
          }
        : {},
      { label: y.unit, size: 60 },
    ],
    series: [
      {},
      ...series.map(
        (s): uPlot.Series => ({
          label: s.label,
          stroke: s.colour,
          fill: s.kind === 'bars' ? `${s.colour}cc` : undefined,
          width: s.kind === 'bars' ? 0 : 1.5,
          paths: pathsFor(s.kind, n),
          points: { show: s.kind === 'line' && n <= 60 },
          spanGaps: false,
        }),
      ),
    ],
    hooks: input.hooks,
  };
}

/** uPlot's columnar data: [x, ...series]. */
export function toAlignedData(x: readonly number[], series: readonly ChartSeries[]): uPlot.AlignedData {
  return [x as number[], ...series.map((s) => s.values as (number | null)[])];
}

/** A one-line text summary for screen readers (what the chart shows, not every point). */
export function describeSeries(
  x: readonly number[],
  series: readonly ChartSeries[],
  unit: string,
  formatX: (ts: number) => string,
): string {
  if (x.length === 0) return 'No data.';
  const parts = series.map((s) => {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    let count = 0;
    for (const v of s.values) {
      if (v === null) continue;
      count++;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    return count === 0
      ? `${s.label}: no values`
      : `${s.label}: ${count} values, lowest ${formatValue(min, unit)}, highest ${formatValue(max, unit)}`;
  });
  return `From ${formatX(x[0]!)} to ${formatX(x[x.length - 1]!)}. ${parts.join('; ')}.`;
}
