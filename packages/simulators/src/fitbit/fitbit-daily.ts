/*
 * Deterministic daily Fitbit data per simulated user (providers.md §1.9):
 * steps, distance, floors, active minutes, calories, resting heart rate,
 * main sleep with stages, weight, SpO2, VO2 max, HRV, breathing rate and
 * nightly skin temperature, consistent with the minutes the tracker was on
 * the wrist (fitbit-wear.ts, decision 032):
 *
 * - a minute off the wrist has no heart rate and no steps; steps, floors
 *   and the active minutes scale with the share of 07:00–21:00 worn, and
 *   the day's steps are the sum of its minutes;
 * - a day with no minute worn (a drawer day, or one not synced) has no
 *   steps, no heart rate, no sleep, no food log; its minutes are sedentary
 *   and its calories the basal ones, as Fitbit reports such a day;
 * - the main sleep of a date exists only when the tracker was on the wrist
 *   through its whole window (a night off the wrist has no sleep log), and
 *   SpO2, HRV, breathing rate and skin temperature, which Fitbit computes
 *   from the main sleep, only with it; resting heart rate and VO2 max with
 *   any minute worn. Off-wrist minutes count as sedentary (legacy API).
 */

import { addDays } from '@trialwear/zone';
import { onDeviceStateChange } from './fitbit-device-state.js';
import { existingMinutes, fitbitWornMask, nightOf, rnd } from './fitbit-wear.js';

export interface FitbitDay {
  worn: boolean;
  /** Minutes of the local date with a heart-rate sample (`fitbitWearMinutes`). */
  wornMinutes: number;
  steps: number;
  distanceKm: number;
  floors: number;
  minutesSedentary: number;
  minutesLightlyActive: number;
  minutesFairlyActive: number;
  minutesVeryActive: number;
  calories: number;
  /** Basal part of `calories`; the rest is activityCalories. */
  caloriesBMR: number;
  restingHeartRate: number | null;
  sleep: {
    start: string;
    minutesAsleep: number;
    deep: number;
    light: number;
    rem: number;
    wake: number;
  } | null;
  weightKg: number | null;
  fatPct: number | null;
  spo2: { avg: number; min: number; max: number } | null;
  vo2Max: string | null;
  /** Heart-rate variability of the main sleep, ms (providers.md §1.7.10). */
  hrv: { dailyRmssd: number; deepRmssd: number } | null;
  /** Breathing rate of the main sleep, breaths per minute. */
  breathingRate: number | null;
  /** Nightly skin temperature of the main sleep relative to the user's baseline, °C. */
  skinTempRelative: number | null;
  /** Food log total (kcal) and water (ml); nothing logged on days not worn. */
  caloriesIn: number;
  waterMl: number;
}

interface DayModel {
  day: FitbitDay;
  /** Steps per wall-clock minute (1440 values). */
  steps: number[];
}

/** Days already made: the values are deterministic, and a year's series asks for 365 of them at once. */
const memo = new Map<string, DayModel>();
onDeviceStateChange(() => memo.clear());

function model(userId: string, date: string): DayModel {
  const key = `${userId}:${date}`;
  const hit = memo.get(key);
  if (hit) return hit;
  if (memo.size >= 50_000) memo.clear();
  const made = makeDay(userId, date);
  memo.set(key, made);
  return made;
}

export const fitbitDay = (userId: string, date: string): FitbitDay => model(userId, date).day;

/**
 * Walking bursts between 07:00 and 21:00 until `target` steps are placed
 * (at most 200 bursts), only in minutes on the wrist.
 */
function placeSteps(userId: string, date: string, target: number, on: Uint8Array): number[] {
  const minutes = new Array<number>(1440).fill(0);
  let left = target;
  let i = 0;
  while (left > 0 && i < 200) {
    const start = 7 * 60 + Math.floor(rnd(`${userId}:${date}:burst${i}`) * (14 * 60));
    const len = 5 + Math.floor(rnd(`${userId}:${date}:len${i}`) * 25);
    for (let m = start; m < Math.min(1440, start + len) && left > 0; m++) {
      if (!on[m]) continue;
      const v = Math.min(left, 60 + Math.floor(rnd(`${userId}:${date}:${m}`) * 70));
      minutes[m] = (minutes[m] ?? 0) + v;
      left -= v;
    }
    i++;
  }
  return minutes;
}

/** Whether every existing minute of [from, to) (minutes after `date`'s midnight, -1440…1440) was worn. */
function wornThrough(userId: string, date: string, from: number, to: number): boolean {
  for (const [d, lo, hi] of [
    [addDays(date, -1), from + 1440, to + 1440],
    [date, from, to],
  ] as const) {
    const on = fitbitWornMask(userId, d);
    const exists = existingMinutes(userId, d);
    for (let m = Math.max(0, lo); m < Math.min(1440, hi); m++) if (exists[m] && !on[m]) return false;
  }
  return true;
}

function makeDay(userId: string, date: string): DayModel {
  const r = (k: string) => rnd(`${userId}:${date}:${k}`);
  const u = (k: string) => rnd(`${userId}:${k}`);
  const on = fitbitWornMask(userId, date);
  let wornMinutes = 0;
  for (const v of on) wornMinutes += v;
  let daytimeOn = 0;
  for (let m = 7 * 60; m < 21 * 60; m++) daytimeOn += on[m]!;
  const worn = wornMinutes > 0;
  // The share of the day's waking hours worn: steps and activity scale with it.
  const f = daytimeOn / (14 * 60);
  const weekend = [0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay());
  const baseSteps = 4000 + u('steps') * 7000;
  const target = worn ? Math.round(baseSteps * (weekend ? 0.85 : 1) * (0.6 + r('steps') * 0.8) * f) : 0;
  const perMinute = placeSteps(userId, date, target, on);
  const steps = perMinute.reduce((a, b) => a + b, 0);
  const walking = perMinute.filter((s) => s > 0).length;
  const stride = 0.65 + u('stride') * 0.15;
  const veryActive = worn ? Math.round(r('va') * 60 * f) : 0;
  const fairly = worn ? Math.round(r('fa') * 45 * f) : 0;
  const lightly = worn ? Math.round((140 + r('la') * 160) * f) : 0;
  const night = nightOf(userId, date);
  const sleptWorn =
    worn && wornThrough(userId, date, night.startMin - 1440, night.startMin - 1440 + night.inBed);
  const asleep = sleptWorn ? night.asleep : 0;
  const sleepStartMin = night.startMin; // 22:00–24:00 the evening before
  // 24:00 is 00:00 of the wake-up date itself, not of the evening before.
  const prev = sleepStartMin >= 24 * 60 ? date : addDays(date, -1);
  const hh = String(Math.floor(sleepStartMin / 60) % 24).padStart(2, '0');
  const mm = String(sleepStartMin % 60).padStart(2, '0');
  const wake = night.wake;
  const deep = Math.round(asleep * (0.13 + r('deep') * 0.1));
  const rem = Math.round(asleep * (0.18 + r('rem') * 0.07));
  const weighed = r('weighed') < 0.6;
  const baseKg = 58 + u('kg') * 50;
  const bmr = Math.round(1500 + u('bmr') * 400);
  const day: FitbitDay = {
    worn,
    wornMinutes,
    steps,
    distanceKm: Math.round(((steps * stride) / 1000) * 1000) / 1000,
    floors: worn ? Math.min(walking, Math.round(r('floors') * 20 * f)) : 0,
    minutesSedentary: worn ? 1440 - asleep - lightly - fairly - veryActive : 1440,
    minutesLightlyActive: lightly,
    minutesFairlyActive: fairly,
    minutesVeryActive: veryActive,
    calories: Math.round(bmr + steps * 0.04 + veryActive * 8),
    caloriesBMR: bmr,
    restingHeartRate: worn ? Math.round(52 + u('rhr') * 22 + (r('rhr') - 0.5) * 4) : null,
    sleep: sleptWorn
      ? {
          start: `${prev}T${hh}:${mm}:00.000`,
          minutesAsleep: asleep,
          deep,
          light: asleep - deep - rem,
          rem,
          wake,
        }
      : null,
    weightKg: weighed ? Math.round((baseKg + (r('kg') - 0.5) * 1.2) * 10) / 10 : null,
    fatPct: weighed ? Math.round((15 + u('fat') * 20 + (r('fat') - 0.5)) * 10) / 10 : null,
    spo2: sleptWorn
      ? {
          avg: Math.round((94 + r('o2') * 4) * 10) / 10,
          min: Math.round((89 + r('o2min') * 5) * 10) / 10,
          max: Math.round((97 + r('o2max') * 3) * 10) / 10,
        }
      : null,
    vo2Max: worn
      ? (() => {
          const low = Math.round(32 + u('vo2') * 20);
          return `${low}-${low + 4}`;
        })()
      : null,
    hrv: sleptWorn
      ? {
          dailyRmssd: Math.round((20 + u('hrv') * 50 + (r('hrv') - 0.5) * 8) * 10) / 10,
          deepRmssd: Math.round((22 + u('hrv') * 50 + (r('dhrv') - 0.5) * 8) * 10) / 10,
        }
      : null,
    breathingRate: sleptWorn ? Math.round((12 + u('br') * 6 + (r('br') - 0.5)) * 10) / 10 : null,
    // + 0 turns Math.round's -0 into 0 (JSON has no negative zero).
    skinTempRelative: sleptWorn ? Math.round((r('skin') - 0.5) * 2.4 * 10) / 10 + 0 : null,
    caloriesIn: worn ? 1600 + Math.round(u('food') * 9) * 100 + Math.round(r('food') * 300) : 0,
    waterMl: worn ? 1000 + Math.round(r('water') * 10) * 100 : 0,
  };
  return { day, steps: perMinute };
}

/** Minute-by-minute steps of a day (1440 values, zero at night and off the wrist, walking bursts). */
export const fitbitIntradaySteps = (userId: string, date: string): number[] => [...model(userId, date).steps];

/** Minute-by-minute heart rate (asleep 45–70, awake 60–100, higher while walking; null off the wrist). */
export function fitbitIntradayHeart(userId: string, date: string): Array<number | null> {
  const { day, steps } = model(userId, date);
  if (!day.worn || day.restingHeartRate === null) return new Array(1440).fill(null);
  const on = fitbitWornMask(userId, date);
  return steps.map((s, m) => {
    if (!on[m]) return null;
    const asleep = m < 6 * 60 + 30;
    const base = (day.restingHeartRate ?? 60) + (asleep ? -4 : 12);
    return Math.round(base + (s > 0 ? 25 + s / 6 : 0) + (rnd(`${userId}:${date}:hr${m}`) - 0.5) * 6);
  });
}
