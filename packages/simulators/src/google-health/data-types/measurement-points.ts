/*
 * The points of the health measurements, from the legacy day: oxygen
 * saturation samples through the main sleep whose min and max are the
 * legacy SpO2 min and max; the legacy day's SpO2, breathing rate, skin
 * temperature and VO2 max as daily values; weight and body fat as a sample
 * at the legacy log's local time 07:38:14; height: 1720 mm (the legacy
 * BMI's height), entered once.
 */
import { fitbitDay } from '../../fitbit/fitbit-daily.js';
import { prng } from '../../fitbit/fitbit-intraday.js';
import { MEMBER_SINCE, round } from './legacy-day.js';
import { atLocal, dailyPoint, samplePoint } from './point-builders.js';
import { skinBaseline, sleepSession } from './sleep-day.js';
import type { DayCtx, Pt } from './spec.js';

export function oxygenSaturationPoints(c: DayCtx): Pt[] {
  const o = fitbitDay(c.person.dataUserId, c.date).spo2;
  const s = sleepSession(c.person, c.date);
  if (!o || !s) return [];
  // One sample a minute through the main sleep; its lowest and highest are the legacy min and max.
  const next = prng(`${c.person.dataUserId}:${c.date}:spo2`);
  const n = s.minutes.inBed;
  const values = Array.from({ length: n }, () =>
    round(Math.min(o.max, Math.max(o.min, o.avg + (next() - 0.5) * 2)), 1),
  );
  values[Math.floor(n * 0.3)] = o.min;
  values[Math.floor(n * 0.6)] = o.max;
  if (c.config.spo2SentinelSamples)
    for (const i of [Math.floor(n * 0.1), Math.floor(n * 0.45), Math.floor(n * 0.8)]) values[i] = 50;
  return values.map((v, i) => samplePoint(c, s.start + i * 60_000, { percentage: v }, v, 'tracker', s.tz));
}

export function dailyOxygenSaturationPoints(c: DayCtx): Pt[] {
  const o = fitbitDay(c.person.dataUserId, c.date).spo2;
  if (!o) return [];
  // Confidence bounds around the average (not the night's extremes, §6 #13).
  return dailyPoint(c, {
    averagePercentage: o.avg,
    lowerBoundPercentage: round(o.avg - 0.8, 1),
    upperBoundPercentage: round(Math.min(100, o.avg + 0.8), 1),
    standardDeviationPercentage: 0.6,
  });
}

export function respiratoryRatePoints(c: DayCtx): Pt[] {
  const v = fitbitDay(c.person.dataUserId, c.date).breathingRate;
  return v === null ? [] : dailyPoint(c, { breathsPerMinute: v });
}

export function sleepTemperaturePoints(c: DayCtx): Pt[] {
  // Absolute values; the legacy nightlyRelative is nightly − baseline (rounded to 0.1 °C).
  const relative = fitbitDay(c.person.dataUserId, c.date).skinTempRelative;
  if (relative === null) return [];
  const baseline = skinBaseline(c.person.dataUserId);
  return dailyPoint(c, {
    nightlyTemperatureCelsius: round(baseline + relative, 2),
    baselineTemperatureCelsius: baseline,
    relativeNightlyStddev30dCelsius: 0.35,
  });
}

export function vo2MaxPoints(c: DayCtx): Pt[] {
  const v = fitbitDay(c.person.dataUserId, c.date).vo2Max;
  if (v === null) return [];
  // Legacy "L-(L+4)" is a demographic estimate: its middle, flagged estimated.
  const low = Number(v.split('-')[0]);
  const vo2 = low + 2;
  const level =
    vo2 < 35 ? 'POOR' : vo2 < 40 ? 'FAIR' : vo2 < 45 ? 'AVERAGE' : vo2 < 50 ? 'GOOD' : 'VERY_GOOD';
  return dailyPoint(c, { vo2Max: vo2, estimated: true, cardioFitnessLevel: level });
}

/** The scale's reading of the day, at the legacy weight log's time. */
const scalePoint = (c: DayCtx, fields: Record<string, unknown>, n: number): Pt[] => [
  samplePoint(c, atLocal(c, '07:38:14'), fields, n, 'scale'),
];

export function weightPoints(c: DayCtx): Pt[] {
  const kg = fitbitDay(c.person.dataUserId, c.date).weightKg;
  if (kg === null) return [];
  const grams = Math.round(kg * 1000);
  return scalePoint(c, { weightGrams: grams }, grams);
}

export function bodyFatPoints(c: DayCtx): Pt[] {
  const pct = fitbitDay(c.person.dataUserId, c.date).fatPct;
  return pct === null ? [] : scalePoint(c, { percentage: pct }, pct);
}

export const heightPoints = (c: DayCtx): Pt[] =>
  // Entered once, when the account was made (the legacy BMI's 1.72 m).
  c.date !== MEMBER_SINCE
    ? []
    : [samplePoint(c, atLocal(c, '08:00:00'), { heightMillimeters: '1720' }, 1720)];
