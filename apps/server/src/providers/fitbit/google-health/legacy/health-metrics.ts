/*
 * The legacy daily health metrics from Google's daily types: SpO2 (the
 * average only: Google's bounds are confidence bounds, not the night's
 * min/max), cardio score (one number, not the legacy range), HRV,
 * breathing rate and skin temperature.
 */
import type { FitbitResource } from '@trialwear/contract';
import { num } from '../civil-time.js';
import type { GoogleHealthCalls } from '../google-http.js';
import { dailyPoints, type Json, round } from './google-payloads.js';

/** A daily type's entries in date order: `{ dateTime, ...entry }` for the dates `entry` answers (not null). */
async function dailyEntries(
  calls: GoogleHealthCalls,
  dataType: string,
  r: FitbitResource,
  entry: (payload: Json) => Json | null,
): Promise<Json[]> {
  const out: Json[] = [];
  for (const [d, p] of [...(await dailyPoints(calls, dataType, r.start!, r.end!))].sort()) {
    const e = entry(p);
    if (e) out.push({ dateTime: d, ...e });
  }
  return out;
}

export const spo2 = (calls: GoogleHealthCalls, r: FitbitResource) =>
  dailyEntries(calls, 'daily-oxygen-saturation', r, (p) => {
    const avg = num(p.averagePercentage);
    return avg === null ? null : { value: { avg: round(avg, 3) } };
  });

export const cardioscore = async (calls: GoogleHealthCalls, r: FitbitResource) => ({
  cardioScore: await dailyEntries(calls, 'daily-vo2-max', r, (p) => {
    const v = num(p.vo2Max);
    return v === null ? null : { value: { vo2Max: String(round(v, 1)) } };
  }),
});

export const hrv = async (calls: GoogleHealthCalls, r: FitbitResource) => ({
  hrv: await dailyEntries(calls, 'daily-heart-rate-variability', r, (p) => {
    const daily = num(p.averageHeartRateVariabilityMilliseconds);
    const deep = num(p.deepSleepRootMeanSquareOfSuccessiveDifferencesMilliseconds);
    if (daily === null && deep === null) return null;
    return {
      value: {
        ...(daily === null ? {} : { dailyRmssd: round(daily, 3) }),
        ...(deep === null ? {} : { deepRmssd: round(deep, 3) }),
      },
    };
  }),
});

export const breathingRate = async (calls: GoogleHealthCalls, r: FitbitResource) => ({
  br: await dailyEntries(calls, 'daily-respiratory-rate', r, (p) => {
    const v = num(p.breathsPerMinute);
    return v === null ? null : { value: { breathingRate: round(v, 3) } };
  }),
});

/**
 * `/temp/skin/date/…`: the night's skin temperature relative to the
 * personal baseline (legacy `nightlyRelative`), from Google's absolute
 * nightly and baseline values (§6 row 18).
 */
export const skinTemperature = async (calls: GoogleHealthCalls, r: FitbitResource) => ({
  tempSkin: await dailyEntries(calls, 'daily-sleep-temperature-derivations', r, (p) => {
    const nightly = num(p.nightlyTemperatureCelsius);
    const baseline = num(p.baselineTemperatureCelsius);
    if (nightly === null || baseline === null) return null;
    return { value: { nightlyRelative: round(nightly - baseline, 2) }, logType: 'dedicated_temp_sensor' };
  }),
});
