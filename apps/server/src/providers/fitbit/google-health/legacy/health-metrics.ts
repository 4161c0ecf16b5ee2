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

export async function spo2(calls: GoogleHealthCalls, r: FitbitResource) {
  const out: Json[] = [];
  for (const [d, p] of [...(await dailyPoints(calls, 'daily-oxygen-saturation', r.start!, r.end!))].sort()) {
    const avg = num(p.averagePercentage);
    if (avg !== null) out.push({ dateTime: d, value: { avg: round(avg, 3) } });
  }
  return out;
}

export async function cardioscore(calls: GoogleHealthCalls, r: FitbitResource) {
  const cardioScore: Json[] = [];
  for (const [d, p] of [...(await dailyPoints(calls, 'daily-vo2-max', r.start!, r.end!))].sort()) {
    const v = num(p.vo2Max);
    if (v !== null) cardioScore.push({ dateTime: d, value: { vo2Max: String(round(v, 1)) } });
  }
  return { cardioScore };
}

export async function hrv(calls: GoogleHealthCalls, r: FitbitResource) {
  const out: Json[] = [];
  for (const [d, p] of [
    ...(await dailyPoints(calls, 'daily-heart-rate-variability', r.start!, r.end!)),
  ].sort()) {
    const daily = num(p.averageHeartRateVariabilityMilliseconds);
    const deep = num(p.deepSleepRootMeanSquareOfSuccessiveDifferencesMilliseconds);
    if (daily === null && deep === null) continue;
    out.push({
      dateTime: d,
      value: {
        ...(daily === null ? {} : { dailyRmssd: round(daily, 3) }),
        ...(deep === null ? {} : { deepRmssd: round(deep, 3) }),
      },
    });
  }
  return { hrv: out };
}

export async function breathingRate(calls: GoogleHealthCalls, r: FitbitResource) {
  const out: Json[] = [];
  for (const [d, p] of [...(await dailyPoints(calls, 'daily-respiratory-rate', r.start!, r.end!))].sort()) {
    const v = num(p.breathsPerMinute);
    if (v !== null) out.push({ dateTime: d, value: { breathingRate: round(v, 3) } });
  }
  return { br: out };
}

/**
 * `/temp/skin/date/…`: the night's skin temperature relative to the
 * personal baseline (legacy `nightlyRelative`), from Google's absolute
 * nightly and baseline values (§6 row 18).
 */
export async function skinTemperature(calls: GoogleHealthCalls, r: FitbitResource) {
  const out: Json[] = [];
  for (const [d, p] of [
    ...(await dailyPoints(calls, 'daily-sleep-temperature-derivations', r.start!, r.end!)),
  ].sort()) {
    const nightly = num(p.nightlyTemperatureCelsius);
    const baseline = num(p.baselineTemperatureCelsius);
    if (nightly !== null && baseline !== null)
      out.push({
        dateTime: d,
        value: { nightlyRelative: round(nightly - baseline, 2) },
        logType: 'dedicated_temp_sensor',
      });
  }
  return { tempSkin: out };
}
