/*
 * Intraday datasets in the user's local time (providers.md §1.7.3, §1.7.5):
 * one entry per local minute at 1min (the minutes skipped when clocks go
 * forward are absent, so that day has 1380; the day clocks go back lists
 * each wall-clock minute once, 1440), summed (steps, distance, floors,
 * calories) or averaged (heart) per 5 or 15 minutes, and heart rate at 1sec
 * as irregular samples every 1–15 s ('second' datasets). An optional
 * HH:mm–HH:mm window keeps the entries inside it (both ends included).
 */
import { createHash } from 'node:crypto';
import { localDayMinutes, localTimeExists } from '@trialwear/zone';
import { fitbitDay, fitbitIntradayHeart, fitbitIntradaySteps } from './fitbit-daily.js';
import { fitbitUserTimezone } from './fitbit-data.js';

export const INTRADAY_RESOURCES = ['steps', 'distance', 'floors', 'elevation', 'calories', 'heart'] as const;
export type IntradayResource = (typeof INTRADAY_RESOURCES)[number];
export type IntradayDetail = '1sec' | '1min' | '5min' | '15min';

const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** The wall-clock minutes (0–1439) that exist on the user's local date. */
export function fitbitLocalMinutes(userId: string, date: string): number[] {
  const { tz } = fitbitUserTimezone(userId);
  const all = Array.from({ length: 1440 }, (_, m) => m);
  if (localDayMinutes(tz, date) >= 1440) return all;
  return all.filter((m) => localTimeExists(tz, `${date}T${hhmm(m)}`));
}

/** Per-minute values of one resource (null = no reading that minute). */
function minuteValues(userId: string, date: string, resource: IntradayResource): Array<number | null> {
  if (resource === 'heart') return fitbitIntradayHeart(userId, date);
  const steps = fitbitIntradaySteps(userId, date);
  const day = fitbitDay(userId, date);
  if (resource === 'steps') return steps;
  if (resource === 'distance') {
    const stride = day.distanceKm / Math.max(1, day.steps);
    return steps.map((s) => Math.round(s * stride * 1000) / 1000);
  }
  if (resource === 'calories')
    return steps.map((s) => Math.round((day.caloriesBMR / 1440 + s * 0.04) * 100) / 100);
  // Floors (and their elevation, 3.048 m each): climbed during the day's first walking minutes.
  let left = day.floors;
  return steps.map((s) => {
    if (s === 0 || left === 0) return 0;
    left -= 1;
    return resource === 'floors' ? 1 : 3.048;
  });
}

/** A PRNG seeded per user and day: thousands of samples without a hash each. */
export function prng(seed: string) {
  let a = createHash('sha256').update(seed).digest().readUInt32BE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface IntradayDataset {
  dataset: Array<{ time: string; value: number }>;
  datasetInterval: number;
  datasetType: 'second' | 'minute';
}

/** The intraday dataset of a local day as Fitbit sends it. */
export function fitbitIntradayDataset(
  userId: string,
  date: string,
  resource: IntradayResource,
  detail: IntradayDetail,
  window?: [string, string],
): IntradayDataset {
  const minutes = fitbitLocalMinutes(userId, date);
  const values = minuteValues(userId, date, resource);
  let dataset: Array<{ time: string; value: number }>;
  if (detail === '1sec') {
    // Irregular samples, only while the device records (minutes with a value).
    const next = prng(`${userId}:${date}:1sec`);
    dataset = [];
    const exists = new Set(minutes);
    // One stream over the day: the next sample comes 1–15 s after the last, while the device records.
    for (let t = Math.floor(next() * 15); t < 86_400; t += 1 + Math.floor(next() * 15)) {
      const m = Math.floor(t / 60);
      const v = values[m];
      if (!exists.has(m) || v === null || v === undefined) continue;
      dataset.push({
        time: `${hhmm(m)}:${String(t % 60).padStart(2, '0')}`,
        value: Math.max(30, Math.round(v + (next() - 0.5) * 4)),
      });
    }
  } else {
    const size = detail === '1min' ? 1 : detail === '5min' ? 5 : 15;
    const buckets = new Map<number, number[]>();
    for (const m of minutes) {
      const v = values[m];
      if (v === null || v === undefined) continue;
      const b = m - (m % size);
      buckets.set(b, [...(buckets.get(b) ?? []), v]);
    }
    dataset = [...buckets].map(([b, vs]) => ({
      time: `${hhmm(b)}:00`,
      value:
        resource === 'heart'
          ? Math.round(vs.reduce((x, y) => x + y, 0) / vs.length)
          : Math.round(vs.reduce((x, y) => x + y, 0) * 1000) / 1000,
    }));
  }
  if (window) {
    const [from, to] = [`${window[0]}:00`, `${window[1]}:59`];
    dataset = dataset.filter((e) => e.time >= from && e.time <= to);
  }
  const interval = detail === '1sec' || detail === '1min' ? 1 : detail === '5min' ? 5 : 15;
  return { dataset, datasetInterval: interval, datasetType: detail === '1sec' ? 'second' : 'minute' };
}
