/*
 * How the points of a window roll up (§3.5, §3.6): sums, averages, time
 * per level, and the personal ranges the daily types answer instead.
 * Each returns undefined without points: the answer then leaves the key out.
 */

import { addDays } from '@trialwear/zone';
import type { Person } from '../person.js';
import { round, sum } from './legacy-day.js';
import type { Share } from './spec.js';

type Aggregate = (items: Share[]) => object | undefined;

/** Sum of `n` (each point's share of it) as an int64 string under `field`. */
export const sumOf =
  (field: string): Aggregate =>
  (items) =>
    items.length === 0
      ? undefined
      : { [field]: String(Math.round(sum(items.map((x) => (x.pt.n ?? 0) * x.share)))) };

/** The plain sum of `n`, shaped by `render` (kcal, millilitres). */
export const totalOf =
  (render: (total: number) => object): Aggregate =>
  (items) =>
    items.length === 0 ? undefined : render(sum(items.map((x) => x.pt.n ?? 0)));

/** Calories held in hundredths of a kcal, summed to kcal. */
export const kcalSumOfCents = totalOf((cents) => ({ kcalSum: round(cents / 100, 2) }));

export const avgOf =
  (field: string, digits: number): Aggregate =>
  (items) =>
    items.length === 0
      ? undefined
      : { [field]: round(sum(items.map((x) => x.pt.n ?? 0)) / items.length, digits) };

export const beatsPerMinuteStats: Aggregate = (items) => {
  if (items.length === 0) return undefined;
  const vs = items.map((x) => x.pt.n!);
  return {
    beatsPerMinuteAvg: round(sum(vs) / vs.length, 4),
    beatsPerMinuteMin: Math.min(...vs),
    beatsPerMinuteMax: Math.max(...vs),
  };
};

/** Duration types: seconds per level inside the window. */
function secondsByLevel(items: Share[]) {
  const by = new Map<string, number>();
  for (const { pt, share } of items)
    by.set(pt.level!, (by.get(pt.level!) ?? 0) + Math.round((((pt.end ?? pt.t) - pt.t) / 1000) * share));
  return by;
}

/** Duration types: under `key`, one entry per level with time (in `levels` order). */
export const perLevel =
  (key: string, levels: readonly string[], entry: (level: string, seconds: number) => object): Aggregate =>
  (items) => {
    if (items.length === 0) return undefined;
    const by = secondsByLevel(items);
    return { [key]: levels.filter((l) => by.has(l)).map((l) => entry(l, by.get(l)!)) };
  };

/** Sums of `n` per level as int64 strings, the level being the field name. */
export const sumsByLevel: Aggregate = (items) => {
  if (items.length === 0) return undefined;
  const sums: Record<string, number> = {};
  for (const { pt } of items) sums[pt.level!] = (sums[pt.level!] ?? 0) + (pt.n ?? 0);
  return Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, String(v)]));
};

/** The lowest and highest of a daily value over the 30 days before `endDate`. */
export function personalRange(
  endDate: string,
  value: (date: string) => number | null,
): { min: number; max: number } | undefined {
  const vs: number[] = [];
  for (let i = 1; i <= 30; i++) {
    const v = value(addDays(endDate, -i));
    if (v !== null) vs.push(v);
  }
  return vs.length ? { min: Math.min(...vs), max: Math.max(...vs) } : undefined;
}

export type PersonalRange = (person: Person, endDate: string) => object | undefined;
