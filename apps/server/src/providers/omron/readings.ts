/*
 * Omron measurements (providers.md §2.4) in the portal's shape: local time,
 * the instant, the offset and the values in Omron's units (mmHg, bpm, kg).
 * `since` is a local date for the staff, while Omron compares it with the
 * UTC instant: the server asks from the day before and keeps readings whose
 * local date is on or after `since`, so no reading near midnight is lost or
 * wrongly kept, whatever the participant's offset.
 */

import type { BloodPressureReading, OmronQuery, WeightReading } from '@trialwear/contract';
import { addDays } from '@trialwear/zone';

export interface OmronMeasurement {
  id?: number;
  dateTime: string;
  dateTimeLocal: string;
  dateTimeUtcOffset: string;
  systolic?: number;
  diastolic?: number;
  pulse?: number | null;
  weight?: number;
  bmi?: number | null;
  bodyFat?: number | null;
}

export interface OmronPage {
  status: number;
  result?: {
    truncated?: boolean;
    bloodPressure?: OmronMeasurement[];
    weight?: OmronMeasurement[];
  };
}

/** Omron's `type` for a category. */
export const omronType = (c: OmronQuery['category']) => (c === 'bloodPressure' ? 'bloodpressure' : 'weight');

/** The `since` sent to Omron: the day before the local date (offsets reach ±14 h). */
export const omronSince = (localSince: string) => addDays(localSince, -1);

export const toBloodPressure = (m: OmronMeasurement): BloodPressureReading => ({
  dateTimeLocal: m.dateTimeLocal,
  dateTime: m.dateTime,
  utcOffset: m.dateTimeUtcOffset,
  systolic: m.systolic ?? 0,
  diastolic: m.diastolic ?? 0,
  pulse: m.pulse ?? null,
});

export const toWeight = (m: OmronMeasurement): WeightReading => ({
  dateTimeLocal: m.dateTimeLocal,
  dateTime: m.dateTime,
  utcOffset: m.dateTimeUtcOffset,
  weight: m.weight ?? 0,
  bmi: m.bmi ?? null,
  bodyFat: m.bodyFat ?? null,
});

/** Readings on or after the local date, de-duplicated by id, in the order and limit asked (0 = all). */
export function selectReadings(
  readings: readonly OmronMeasurement[],
  q: Pick<OmronQuery, 'since' | 'sortOrder' | 'limit'>,
): OmronMeasurement[] {
  const seen = new Set<string>();
  const kept = readings.filter((r) => {
    const key = r.id !== undefined ? String(r.id) : r.dateTime;
    if (seen.has(key) || r.dateTimeLocal.slice(0, 10) < q.since) return false;
    seen.add(key);
    return true;
  });
  kept.sort((a, b) => Date.parse(a.dateTime) - Date.parse(b.dateTime));
  if (q.sortOrder === 'desc') kept.reverse();
  return q.limit ? kept.slice(0, q.limit) : kept;
}
