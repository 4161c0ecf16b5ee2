/*
 * Omron answers → what the tables and charts show: pounds for weight (core §9,
 * kgToLb), and chart series on the participant's wall clock, in the order of
 * that clock whatever order the table was asked in.
 */
import { type BloodPressureReading, kgToLb, type WeightReading } from '@trialwear/contract';
import type { LineData } from '../lib/line-data';
import { wallClockSeconds } from '../lib/local-dates';

/**
 * In the order of the x the chart plots (the participant's wall clock: uPlot needs x ascending),
 * then by instant; sorted by instant alone, a reading after a clock change (DST, travel) could sit
 * before an earlier wall-clock time and leave the points after it out of the axis's range.
 */
const oldestFirst = <T extends { dateTimeLocal: string; dateTime: string }>(rows: readonly T[]) =>
  [...rows].sort(
    (a, b) =>
      wallClockSeconds(a.dateTimeLocal) - wallClockSeconds(b.dateTimeLocal) ||
      Date.parse(a.dateTime) - Date.parse(b.dateTime),
  );

export function bloodPressureLines(rows: readonly BloodPressureReading[]): LineData {
  const sorted = oldestFirst(rows);
  return {
    x: sorted.map((r) => wallClockSeconds(r.dateTimeLocal)),
    series: [
      { label: 'Systolic', values: sorted.map((r) => r.systolic) },
      { label: 'Diastolic', values: sorted.map((r) => r.diastolic) },
    ],
  };
}

export function weightLines(rows: readonly WeightReading[]): LineData {
  const sorted = oldestFirst(rows);
  return {
    x: sorted.map((r) => wallClockSeconds(r.dateTimeLocal)),
    series: [{ label: 'Weight', values: sorted.map((r) => kgToLb(r.weight)) }],
  };
}
