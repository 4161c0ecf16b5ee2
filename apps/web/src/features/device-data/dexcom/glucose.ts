/*
 * The glucose page's pure parts: the query window, the readings, the chart
 * line and the range bands of the clinical summary (glucoseSummary in the
 * contract computes the figures; this only arranges them).
 */
import { DEXCOM_MAX_PERIOD_DAYS, type Egv, type GlucoseSummary, type Series } from '@trialwear/contract';
import type { LineData } from '../lib/line-data';
import { wallClockSeconds } from '../lib/local-dates';

/** The periods offered (days); over 30 the server stitches 30-day windows. */
export const GLUCOSE_PERIODS = [1, 7, 14, 30, DEXCOM_MAX_PERIOD_DAYS] as const;
export const DEFAULT_GLUCOSE_DAYS = 7;

/** Dexcom's query format: UTC (systemTime) without an offset (providers.md §3.3). */
const utcText = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/**
 * The last `days` days up to now, to the minute: `endDate` is now (floored to
 * the minute, so a re-render asks the same window), `startDate` exactly
 * `days` × 24 h before.
 */
export function glucoseWindow(days: number, nowMs: number = Date.now()) {
  const end = Math.floor(nowMs / 60_000) * 60_000;
  return { startDate: utcText(end - days * 86_400_000), endDate: utcText(end) };
}

/**
 * The window that holds one participant-local day whole, whatever the
 * participant's zone (UTC−12 to UTC+14): the date's UTC midnight − 14 h to
 * + 36 h, never past now. The page keeps the readings of the day itself
 * (readingsOfDay), on the participant's displayed clock.
 */
export function glucoseDayWindow(date: string, nowMs: number = Date.now()) {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  const end = Math.min(midnight + 36 * 3_600_000, Math.floor(nowMs / 60_000) * 60_000);
  return { startDate: utcText(midnight - 14 * 3_600_000), endDate: utcText(end) };
}

/** The readings of one local day of the participant (their displayed clock). */
export const readingsOfDay = <R extends Pick<Egv, 'displayTime'>>(readings: readonly R[], date: string) =>
  readings.filter((r) => r.displayTime.slice(0, 10) === date);

/**
 * The EGVs with a value, from the answer's `egv` series (decision 030): the
 * instant and the participant's displayed clock as Dexcom sent them (kept in
 * the point's detail), the value and the trend. A sensor may report a record
 * without a value: not a reading.
 */
export function egvReadings(series: readonly Series[] | undefined): Array<Egv & { value: number }> {
  const out: Array<Egv & { value: number }> = [];
  for (const p of series?.find((s) => s.metric === 'egv')?.points ?? []) {
    if (p.value === null) continue;
    const d = p.detail ?? {};
    out.push({
      ...(typeof d.recordId === 'string' ? { recordId: d.recordId } : {}),
      systemTime: typeof d.systemTime === 'string' ? d.systemTime : p.at,
      displayTime: typeof d.displayTime === 'string' ? d.displayTime : `${p.date}T${p.time}`,
      value: p.value,
      trend: typeof d.trend === 'string' ? d.trend : null,
      trendRate: typeof d.trendRate === 'number' ? d.trendRate : null,
    });
  }
  return out;
}

/** A sensor reads every 5 minutes: a longer silence is a gap (sensor change, out of range). */
const GAP_SECONDS = 10 * 60;

/**
 * The glucose line on the participant's displayed clock, oldest first. A gap
 * longer than 10 minutes gets a null point 5 minutes after the last reading,
 * so the step line stops there instead of holding the last value across it.
 * When the displayed clock goes back (a DST change or the receiver's clock
 * set back), the line keeps time order: every reading is placed at its
 * instant shifted by the newest reading's offset.
 */
export function glucoseLine(readings: ReadonlyArray<Egv & { value: number }>): LineData {
  const sorted = [...readings].sort((a, b) => Date.parse(a.systemTime) - Date.parse(b.systemTime));
  const instants = sorted.map((r) => Date.parse(r.systemTime) / 1000);
  let clock = sorted.map((r) => wallClockSeconds(r.displayTime));
  if (clock.some((t, i) => i > 0 && t <= clock[i - 1]!)) {
    const offset = clock[clock.length - 1]! - instants[instants.length - 1]!;
    clock = instants.map((t) => t + offset);
  }
  const x: number[] = [];
  const values: Array<number | null> = [];
  sorted.forEach((r, i) => {
    if (i > 0 && instants[i]! - instants[i - 1]! > GAP_SECONDS) {
      x.push(x[x.length - 1]! + 300);
      values.push(null);
    }
    x.push(clock[i]!);
    values.push(r.value);
  });
  return { x, series: [{ label: 'Glucose', values }] };
}

export interface GlucoseBand {
  key: 'veryLow' | 'low' | 'inRange' | 'high' | 'veryHigh';
  label: string;
  percent: number;
  color: string;
}

const r1 = (n: number) => Math.max(0, Math.round(n * 10) / 10);

/**
 * The five exclusive bands of the stacked bar (very low <54, low 54–69, in
 * range 70–180, high 181–250, very high >250): the summary's overlapping
 * figures (below 70 includes below 54) are split.
 */
export function glucoseBands(s: GlucoseSummary): GlucoseBand[] {
  return [
    { key: 'veryHigh', label: 'Very high (>250 mg/dL)', percent: s.above250, color: 'orange.8' },
    { key: 'high', label: 'High (181–250 mg/dL)', percent: r1(s.above180 - s.above250), color: 'yellow.5' },
    { key: 'inRange', label: 'In range (70–180 mg/dL)', percent: s.inRange, color: 'teal.6' },
    { key: 'low', label: 'Low (54–69 mg/dL)', percent: r1(s.below70 - s.below54), color: 'red.5' },
    { key: 'veryLow', label: 'Very low (<54 mg/dL)', percent: s.below54, color: 'red.9' },
  ];
}

/**
 * Dexcom's trends (providers.md §3.3) as a clinician reads them on the
 * receiver: the arrow and its meaning in words, with the rate it stands for
 * (mg/dL per minute: flat under 1, "slowly" 1–2, plain 2–3, "quickly" over 3).
 */
const TRENDS: Record<string, { arrow: string; words: string }> = {
  doubleUp: { arrow: '⇈', words: 'rising quickly' },
  singleUp: { arrow: '↑', words: 'rising' },
  fortyFiveUp: { arrow: '↗', words: 'rising slowly' },
  flat: { arrow: '→', words: 'steady' },
  fortyFiveDown: { arrow: '↘', words: 'falling slowly' },
  singleDown: { arrow: '↓', words: 'falling' },
  doubleDown: { arrow: '⇊', words: 'falling quickly' },
  none: { arrow: '', words: 'no trend' },
  notComputable: { arrow: '', words: 'trend not computable' },
  rateOutOfRange: { arrow: '', words: 'rate out of range' },
  unknown: { arrow: '', words: 'trend unknown' },
};

/** A trend in words with its arrow; a value Dexcom adds later is shown as sent. */
export const trendText = (trend: string | null | undefined) => {
  if (!trend) return '—';
  const t = TRENDS[trend];
  return t ? `${t.arrow} ${t.words}`.trim() : trend;
};
