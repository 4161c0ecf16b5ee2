/*
 * Deterministic Omron readings per simulated user and day (providers.md §2.8):
 * 0–3 blood-pressure readings a day (about one day in six without any), and
 * a morning weight on most days. Hypertensive users read 135–165 systolic.
 */
import { createHash } from 'node:crypto';
import { instantOfLocal, offsetMinutesAt, offsetText, wallClockMs } from '@trialwear/zone';

const rnd = (seed: string) => createHash('sha256').update(seed).digest().readUInt32BE(0) / 0xffffffff;
/** Real zones with DST: each reading's dateTimeLocal and dateTimeUtcOffset follow the zone at its instant. */
const ZONES = ['America/Denver', 'America/New_York', 'Europe/Berlin', 'Europe/London'] as const;

export function omronUserZone(userId: string) {
  return ZONES[Math.floor(rnd(`${userId}:tz`) * ZONES.length)]!;
}

function iso(d: Date) {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

export interface BloodPressureReading {
  id: number;
  dateTime: string;
  dateTimeLocal: string;
  dateTimeUtcOffset: string;
  systolic: number;
  diastolic: number;
  bloodPressureUnits: 'mmHg';
  pulse: number;
  pulseUnits: 'bpm';
  deviceType: string;
}

export interface WeightReading {
  id: number;
  dateTime: string;
  dateTimeLocal: string;
  dateTimeUtcOffset: string;
  weight: number;
  weightUnits: 'kg';
  bodyFat: number;
  bmi: number;
  deviceType: string;
}

/** Every reading of one local day (UTC instants from the user's zone at that wall-clock time). */
export function omronDay(userId: string, day: string) {
  const tz = omronUserZone(userId);
  const at = (minute: number) => new Date(instantOfLocal(tz, `${day}T${hhmm(minute)}`));
  const hypertensive = rnd(`${userId}:htn`) < 0.4;
  const bp: BloodPressureReading[] = [];
  const weights: WeightReading[] = [];
  if (rnd(`${userId}:${day}:gap`) > 1 / 6) {
    const count = 1 + Math.floor(rnd(`${userId}:${day}:n`) * 3);
    const minutes = new Set<number>();
    for (let i = 0; i < count; i++) {
      let minute =
        (i === 2 ? 20 * 60 : 7 * 60) + Math.floor(rnd(`${userId}:${day}:m${i}`) * 90) + (i === 1 ? 3 : 0);
      // A cuff reading takes about a minute: two readings of a day never share one.
      while (minutes.has(minute)) minute += 2;
      minutes.add(minute);
      const when = at(minute);
      const base = hypertensive ? 135 : 108;
      const systolic = Math.round(base + rnd(`${userId}:${day}:s${i}`) * 28 + (minute < 600 ? 6 : 0));
      bp.push({
        id: Math.floor(rnd(`${userId}:${day}:id${i}`) * 2_000_000_000),
        dateTime: iso(when),
        dateTimeLocal: wallClockMs(tz, when.getTime()).slice(0, 19),
        dateTimeUtcOffset: offsetText(offsetMinutesAt(tz, when.getTime())),
        systolic,
        diastolic: Math.round(systolic * 0.62 + (rnd(`${userId}:${day}:d${i}`) - 0.5) * 14),
        bloodPressureUnits: 'mmHg',
        pulse: Math.round(58 + rnd(`${userId}:${day}:p${i}`) * 30),
        pulseUnits: 'bpm',
        deviceType: 'BP7450',
      });
    }
  }
  if (rnd(`${userId}:${day}:w`) < 0.7) {
    const when = at(6 * 60 + 45);
    const baseKg = 60 + rnd(`${userId}:kg`) * 45;
    const kg = Math.round((baseKg + (rnd(`${userId}:${day}:kg`) - 0.5) * 1.2) * 10) / 10;
    weights.push({
      id: Math.floor(rnd(`${userId}:${day}:wid`) * 2_000_000_000),
      dateTime: iso(when),
      dateTimeLocal: wallClockMs(tz, when.getTime()).slice(0, 19),
      dateTimeUtcOffset: offsetText(offsetMinutesAt(tz, when.getTime())),
      weight: kg,
      weightUnits: 'kg',
      bodyFat: Math.round((18 + rnd(`${userId}:fat`) * 20) * 10) / 10,
      bmi: Math.round((kg / 1.72 ** 2) * 10) / 10,
      deviceType: 'HBF-222T',
    });
  }
  return { bloodPressure: bp, weight: weights };
}
