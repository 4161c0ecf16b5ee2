/*
 * The daily health metrics as series (SpO2, cardio score, HRV, breathing
 * rate, skin temperature): one value per civil date Google has.
 */
import type { Series, SeriesDay } from '@trialwear/contract';
import { num } from '../civil-time.js';
import { DAILY_TYPE } from '../google-reads.js';
import { type Json, round } from '../payloads.js';
import { type Ctx, dailyPayloads } from './answered.js';

/** A daily type's days in date order, for the dates `day` answers (not null). */
function dailyDays(c: Ctx, kind: string, day: (p: Json) => Omit<SeriesDay, 'date'> | null): SeriesDay[] {
  const out: SeriesDay[] = [];
  for (const [date, p] of [...dailyPayloads(c.a, DAILY_TYPE[kind]!, c.start, c.end)].sort(([x], [y]) =>
    x.localeCompare(y),
  )) {
    const d = day(p);
    if (d) out.push({ date, ...d });
  }
  return out;
}

export function healthMetric(c: Ctx, kind: string): Series[] {
  switch (kind) {
    case 'spo2':
      // The average only: Google's bounds are confidence bounds, not the night's min and max.
      return [
        c.series('spo2', '%', {
          days: dailyDays(c, kind, (p) => {
            const avg = num(p.averagePercentage);
            return avg === null ? null : { value: round(avg, 3), detail: { min: null, max: null } };
          }),
        }),
      ];
    case 'cardioscore':
      // One number (VO2 max), not the legacy range.
      return [
        c.series('cardio_score', 'mL/kg/min', {
          days: dailyDays(c, kind, (p) => {
            const v = num(p.vo2Max);
            return v === null ? null : { value: round(v, 1), text: String(round(v, 1)) };
          }),
        }),
      ];
    case 'hrv':
      return [
        c.series('hrv', 'ms', {
          days: dailyDays(c, kind, (p) => {
            const daily = num(p.averageHeartRateVariabilityMilliseconds);
            const deep = num(p.deepSleepRootMeanSquareOfSuccessiveDifferencesMilliseconds);
            if (daily === null && deep === null) return null;
            return {
              value: daily === null ? null : round(daily, 3),
              detail: { deepRmssd: deep === null ? null : round(deep, 3) },
            };
          }),
        }),
      ];
    case 'br':
      return [
        c.series('breathing_rate', 'breaths/min', {
          days: dailyDays(c, kind, (p) => {
            const v = num(p.breathsPerMinute);
            return v === null ? null : { value: round(v, 3) };
          }),
        }),
      ];
    default:
      // Skin temperature: the night's value relative to the personal baseline (§6 row 18).
      return [
        c.series('skin_temperature', '°C', {
          days: dailyDays(c, kind, (p) => {
            const nightly = num(p.nightlyTemperatureCelsius);
            const baseline = num(p.baselineTemperatureCelsius);
            if (nightly === null || baseline === null) return null;
            return { value: round(nightly - baseline, 2), detail: { logType: 'dedicated_temp_sensor' } };
          }),
        }),
      ];
  }
}
