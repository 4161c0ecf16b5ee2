/*
 * Omron answers → what the tables and charts show: pounds for weight (core §9,
 * kgToLb), and chart series on the participant's wall clock, oldest first
 * whatever order the table was asked in.
 */
import { type BloodPressureReading, kgToLb, type WeightReading } from '@trialwear/contract';
import type { LineData } from '../lib/line-data';
import { wallClockSeconds } from '../lib/local-dates';

const oldestFirst = <T extends { dateTimeLocal: string; dateTime: string }>(rows: readonly T[]) =>
  [...rows].sort((a, b) => Date.parse(a.dateTime) - Date.parse(b.dateTime));

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
