/*
 * The data types the simulator serves (google-health-api.md §3.9) and their
 * points for one local date of one person, derived from the legacy Fitbit
 * generators so that one person gives equal values on both APIs:
 *
 * - steps, distance, floors, altitude: one interval per minute with
 *   activity, from `fitbitIntradaySteps`; the day's sum is the legacy day's
 *   value (distance: the legacy per-minute metres, the day's rounding spread
 *   1 m at a time over the last minutes so the sum is the legacy total);
 * - total-calories (roll-ups only): per minute, the legacy per-minute
 *   calories plus 8 kcal per very active minute, the rest of the legacy
 *   day's total spread over the day, so the day sums to `calories`;
 * - activity-level and active-minutes: intervals whose durations per level
 *   are the legacy sedentary / lightly / fairly / very active minutes;
 * - heart-rate: the legacy 1sec samples (same instants), each minute's
 *   values nudged by at most ±2 so their mean is the legacy 1min value
 *   exactly (the legacy 1sec and 1min levels are not consistent with each
 *   other; Google computes roll-ups from the samples);
 * - sleep: the legacy main sleep (same start, same minutes per stage) as a
 *   STAGES session with a generated stage sequence; oxygen-saturation
 *   samples through it whose min and max are the legacy SpO2 min and max;
 * - daily types (resting heart rate, HRV, SpO2, breathing rate, VO2 max):
 *   the legacy day's values; weight and body fat: a sample at the legacy
 *   log's local time 07:38:14; height: 1720 mm (the legacy BMI's height).
 *
 * Days the legacy user did not wear the tracker have no tracker points
 * (legacy answers 0 steps and 1440 sedentary minutes on them); total-calories
 * still has the basal calories.
 *
 * Wall-clock minutes follow the day's zone: a minute skipped when clocks go
 * forward has no point, a repeated minute is its first occurrence.
 */
import { createHash } from 'node:crypto';
import { fitbitDay, fitbitIntradayHeart, fitbitIntradaySteps } from '../fitbit/fitbit-daily.js';
import { fitbitDevices } from '../fitbit/fitbit-data.js';
import { fitbitActivityLog } from '../fitbit/fitbit-data-routes.js';
import { fitbitIntradayDataset } from '../fitbit/fitbit-intraday.js';
import { instantOfLocal, localIso, offsetMinutesAt } from '../zone.js';
import type { GoogleHealthConfig } from './gh-config.js';
import { duration, localAt } from './gh-json.js';
import { type Person, zoneOfDate } from './person.js';

export type RecordKind = 'interval' | 'sample' | 'daily' | 'session';
export type ScopeArea =
  | 'activity_and_fitness'
  | 'nutrition'
  | 'health_metrics_and_measurements'
  | 'sleep'
  | 'settings'
  | 'profile';
export type Source = 'tracker' | 'phone' | 'scale';

/** One data point before rendering. */
export interface Pt {
  /** Interval or session start, sample instant, or the local midnight of a daily point. */
  t: number;
  /** Interval or session end. */
  end?: number;
  /** The zone whose offsets the point carries. */
  tz: string;
  /** The local date the point belongs to (a sleep: its end date). */
  date: string;
  source: Source;
  /** Payload fields besides the time fields, in proto3 JSON (int64 as strings). */
  fields: Record<string, unknown>;
  /** The number roll-ups aggregate (count, mm, kcal cents, bpm, grams, percent). */
  n?: number;
  /** Duration types: the level the interval's time counts for. */
  level?: string;
  /** Identifiable types: the resource id (last segment of `name`). */
  id?: string;
  /** Cache of the civil time filters compare (points are memoized). */
  civil?: string;
}

export interface DayCtx {
  person: Person;
  date: string;
  tz: string;
  config: GoogleHealthConfig;
}

/** A roll-up input: a point and the share of it inside the window (1 unless it is a duration type cut by the window). */
export interface Share {
  pt: Pt;
  share: number;
}

export interface DataTypeSpec {
  id: string;
  record: RecordKind;
  scope: ScopeArea;
  /** list / reconcile / get (false: roll-ups only, "List is not supported …"). */
  list: (c: GoogleHealthConfig) => boolean;
  rollUp: (c: GoogleHealthConfig) => boolean;
  dailyRollUp: (c: GoogleHealthConfig) => boolean;
  /** Maximum roll-up range in days (proto: 14 for a few types, 90 for the others). */
  maxRollUpDays: 14 | 90;
  /** List page size default and maximum when not the general 1440/10000 (sleep, exercise: 25). */
  pageMax?: number;
  identifiable?: boolean;
  /** Interval points whose value is their duration (cut by roll-up windows). */
  durationValued?: boolean;
  points(c: DayCtx): Pt[];
  /** The roll-up value of the points in a window; undefined: no data (the key is left out). */
  aggregate?(items: Share[]): object | undefined;
  /** dailyRollUp of the daily types: the personal range up to the window's end. */
  personalRange?(person: Person, endDate: string): object | undefined;
}

// ---------------------------------------------------------------- helpers

const DAY = 86_400_000;
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
export const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

function prng(seed: string) {
  let a = createHash('sha256').update(seed).digest().readUInt32BE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const minuteMemo = new Map<string, Float64Array>();
/**
 * The instants of the wall-clock minutes 0–1439 of a local date in a zone:
 * NaN for a minute skipped when clocks go forward; a repeated minute's first
 * occurrence.
 */
export function minuteInstants(tz: string, date: string): Float64Array {
  const key = `${tz}:${date}`;
  const hit = minuteMemo.get(key);
  if (hit) return hit;
  const out = new Float64Array(1440);
  const midnight = instantOfLocal(tz, `${date}T00:00`);
  const next = instantOfLocal(tz, `${addDays(date, 1)}T00:00`);
  if (next - midnight === DAY && offsetMinutesAt(tz, midnight) === offsetMinutesAt(tz, next - 1)) {
    // No change of offset that day (nearly every day): minutes follow midnight.
    for (let m = 0; m < 1440; m++) out[m] = midnight + m * 60_000;
  } else {
    for (let m = 0; m < 1440; m++) {
      const local = `${date}T${hhmm(m)}`;
      const t = instantOfLocal(tz, local);
      out[m] = localIso(tz, t).slice(0, 16) === local ? t : Number.NaN;
    }
  }
  if (minuteMemo.size > 5000) minuteMemo.clear();
  minuteMemo.set(key, out);
  return out;
}

const minutePoint = (
  c: DayCtx,
  t: number,
  fields: Record<string, unknown>,
  n: number,
  source: Source = 'tracker',
): Pt => ({
  t,
  end: t + 60_000,
  tz: c.tz,
  date: c.date,
  source,
  fields,
  n,
});

const intradayMemo = new Map<string, unknown>();
/** The legacy per-minute generators, kept per user and day (several types read the same day). */
function memo<T>(kind: string, userId: string, date: string, make: () => T): T {
  const key = `${kind}:${userId}:${date}`;
  if (intradayMemo.has(key)) return intradayMemo.get(key) as T;
  if (intradayMemo.size > 3000) intradayMemo.clear();
  const v = make();
  intradayMemo.set(key, v);
  return v;
}
const stepsOf = (userId: string, date: string) =>
  memo('steps', userId, date, () => fitbitIntradaySteps(userId, date));
const heartOf = (userId: string, date: string) =>
  memo('heart', userId, date, () => fitbitIntradayHeart(userId, date));

/** Minutes (wall-clock, existing in the day's zone) with steps, and their steps. */
function stepMinutes(c: DayCtx): Array<{ m: number; t: number; s: number }> {
  const steps = stepsOf(c.person.dataUserId, c.date);
  const at = minuteInstants(c.tz, c.date);
  const out: Array<{ m: number; t: number; s: number }> = [];
  for (let m = 0; m < 1440; m++)
    if (steps[m]! > 0 && !Number.isNaN(at[m]!)) out.push({ m, t: at[m]!, s: steps[m]! });
  return out;
}

/** Spread an integer `delta` over `values` one `unit` at a time, from the last entry back. */
function spread(values: number[], delta: number, unit: number) {
  let left = delta;
  for (
    let i = values.length - 1;
    left !== 0 && values.length > 0;
    i = (i - 1 + values.length) % values.length
  ) {
    const step = Math.abs(left) >= unit ? Math.sign(left) * unit : left;
    values[i]! += step;
    left -= step;
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export const LEVELS = ['SEDENTARY', 'LIGHTLY_ACTIVE', 'MODERATELY_ACTIVE', 'VERY_ACTIVE'] as const;
type Level = (typeof LEVELS)[number];
const ACTIVE_MINUTES_LEVEL: Record<Level, string | null> = {
  SEDENTARY: null,
  LIGHTLY_ACTIVE: 'LIGHT',
  MODERATELY_ACTIVE: 'MODERATE',
  VERY_ACTIVE: 'VIGOROUS',
};

/**
 * The day's activity-level intervals: the legacy minutes per level, laid
 * out from (1440 − total − 60) minutes after midnight in turns of at most
 * 90 sedentary, 40 light, 15 moderate and 10 very active minutes, over the
 * minutes that exist that day; an interval never spans a missing minute.
 */
export function activityChunks(
  dataUserId: string,
  date: string,
  tz: string,
): Array<{ level: Level; start: number; end: number; minutes: number[] }> {
  const d = fitbitDay(dataUserId, date);
  if (!d.worn) return [];
  const left: Record<Level, number> = {
    SEDENTARY: d.minutesSedentary,
    LIGHTLY_ACTIVE: d.minutesLightlyActive,
    MODERATELY_ACTIVE: d.minutesFairlyActive,
    VERY_ACTIVE: d.minutesVeryActive,
  };
  const caps: Record<Level, number> = {
    SEDENTARY: 90,
    LIGHTLY_ACTIVE: 40,
    MODERATELY_ACTIVE: 15,
    VERY_ACTIVE: 10,
  };
  const at = minuteInstants(tz, date);
  const total = sum(Object.values(left));
  const labels: Array<{ m: number; level: Level }> = [];
  let m = Math.max(0, 1440 - total - 60);
  while (sum(Object.values(left)) > 0 && m < 1440) {
    for (const level of LEVELS) {
      let n = Math.min(caps[level], left[level]);
      while (n > 0 && m < 1440) {
        if (!Number.isNaN(at[m]!)) {
          labels.push({ m, level });
          n -= 1;
          left[level] -= 1;
        }
        m += 1;
      }
    }
  }
  const chunks: Array<{ level: Level; start: number; end: number; minutes: number[] }> = [];
  for (const { m: minute, level } of labels) {
    const t = at[minute]!;
    const last = chunks[chunks.length - 1];
    if (last && last.level === level && last.end === t) {
      last.end = t + 60_000;
      last.minutes.push(minute);
    } else chunks.push({ level, start: t, end: t + 60_000, minutes: [minute] });
  }
  return chunks;
}

/**
 * Per existing minute, the day's calories in hundredths of a kcal: `total`
 * sums to the legacy `calories`, `active` to `calories − caloriesBMR`
 * (activityCalories). A minute is the legacy per-minute calories (basal
 * share + 0.04 kcal a step) plus 8 kcal when very active; what the day's
 * rounding and its missing or repeated minutes leave over is spread, cent by
 * cent, over its walking and very active minutes (over all minutes on a day
 * without any), for the basal and the total part alike, so a minute without
 * activity is exactly basal and has no active energy.
 */
export function calorieCents(c: DayCtx): Array<{ t: number; total: number; active: number }> {
  const d = fitbitDay(c.person.dataUserId, c.date);
  const steps = stepsOf(c.person.dataUserId, c.date);
  const at = minuteInstants(c.tz, c.date);
  const very = new Set(
    activityChunks(c.person.dataUserId, c.date, c.tz)
      .filter((x) => x.level === 'VERY_ACTIVE')
      .flatMap((x) => x.minutes),
  );
  const basal = Math.round((d.caloriesBMR / 1440) * 100);
  const minutes: Array<{ t: number; total: number; basal: number; busy: boolean }> = [];
  for (let m = 0; m < 1440; m++) {
    if (Number.isNaN(at[m]!)) continue;
    const busy = steps[m]! > 0 || very.has(m);
    const total = Math.round((d.caloriesBMR / 1440 + steps[m]! * 0.04) * 100) + (very.has(m) ? 800 : 0);
    minutes.push({ t: at[m]!, total, basal, busy });
  }
  const target = minutes.some((x) => x.busy) ? minutes.filter((x) => x.busy) : minutes;
  const share = (delta: number, i: number) => {
    const base = Math.trunc(delta / target.length);
    const rest = delta - base * target.length;
    return base + (i < Math.abs(rest) ? Math.sign(rest) : 0);
  };
  const dTotal = d.calories * 100 - sum(minutes.map((x) => x.total));
  const dBasal = d.caloriesBMR * 100 - sum(minutes.map((x) => x.basal));
  target.forEach((x, i) => {
    x.total += share(dTotal, i);
    x.basal += share(dBasal, i);
  });
  return minutes.map((x) => ({ t: x.t, total: x.total, active: x.total - x.basal }));
}

/** Heart-rate samples: the legacy 1sec instants, each minute's values nudged so their mean is the legacy 1min value. */
function heartSamples(c: DayCtx): Array<{ t: number; bpm: number }> {
  const id = c.person.dataUserId;
  const perMinute = heartOf(id, c.date);
  const at = minuteInstants(c.tz, c.date);
  const byMinute = new Map<number, Array<{ s: number; v: number }>>();
  for (const e of fitbitIntradayDataset(id, c.date, 'heart', '1sec').dataset) {
    const m = Number(e.time.slice(0, 2)) * 60 + Number(e.time.slice(3, 5));
    if (Number.isNaN(at[m]!) || perMinute[m] === null || perMinute[m] === undefined) continue;
    const list = byMinute.get(m) ?? [];
    list.push({ s: Number(e.time.slice(6, 8)), v: e.value });
    byMinute.set(m, list);
  }
  const out: Array<{ t: number; bpm: number }> = [];
  for (const [m, list] of byMinute) {
    const values = list.map((x) => x.v);
    spread(values, perMinute[m]! * values.length - sum(values), 1);
    list.forEach((x, i) => {
      out.push({ t: at[m]! + x.s * 1000, bpm: values[i]! });
    });
  }
  return out;
}

/** The user's skin-temperature baseline (30-day median), °C: 33.20–34.80, the legacy relative values are from it. */
export function skinBaseline(dataUserId: string): number {
  return round(
    33.2 + (createHash('sha256').update(`${dataUserId}:skin`).digest().readUInt16BE(0) / 0xffff) * 1.6,
    2,
  );
}

/** The user's age (the profile's) and so the Karvonen heart-rate zones of a day (§3.9 daily-heart-rate-zones). */
export function ageOf(dataUserId: string): number {
  return 25 + (createHash('sha256').update(`${dataUserId}:profile`).digest().readUInt8(2) % 45);
}

export const HR_ZONES = ['LIGHT', 'MODERATE', 'VIGOROUS', 'PEAK'] as const;
type HrZone = (typeof HR_ZONES)[number];
/**
 * [I] Zones by heart-rate reserve (max 220 − age, rest the day's resting
 * heart rate): LIGHT 30–39 %, MODERATE 40–59 % (the legacy fat burn),
 * VIGOROUS 60–84 % (cardio), PEAK 85 % and above.
 */
export function hrZones(
  dataUserId: string,
  date: string,
): Array<{ zone: HrZone; min: number; max: number }> | null {
  const rhr = fitbitDay(dataUserId, date).restingHeartRate;
  if (rhr === null) return null;
  const max = 220 - ageOf(dataUserId);
  const at = (pct: number) => Math.round(rhr + ((max - rhr) * pct) / 100);
  return [
    { zone: 'LIGHT', min: at(30), max: at(40) - 1 },
    { zone: 'MODERATE', min: at(40), max: at(60) - 1 },
    { zone: 'VIGOROUS', min: at(60), max: at(85) - 1 },
    { zone: 'PEAK', min: at(85), max },
  ];
}

/** Each existing minute's zone (from the legacy 1min heart rate), consecutive minutes of a zone as one interval. */
function zoneIntervals(c: DayCtx): Array<{ zone: HrZone; start: number; end: number }> {
  const zones = hrZones(c.person.dataUserId, c.date);
  if (!zones) return [];
  const hr = heartOf(c.person.dataUserId, c.date);
  const at = minuteInstants(c.tz, c.date);
  const out: Array<{ zone: HrZone; start: number; end: number }> = [];
  for (let m = 0; m < 1440; m++) {
    const v = hr[m];
    if (Number.isNaN(at[m]!) || v === null || v === undefined) continue;
    const z = [...zones].reverse().find((x) => v >= x.min)?.zone;
    if (!z) continue;
    const last = out[out.length - 1];
    if (last && last.zone === z && last.end === at[m]) last.end += 60_000;
    else out.push({ zone: z, start: at[m]!, end: at[m]! + 60_000 });
  }
  return out;
}

const AZM: Partial<Record<HrZone, { zone: string; credit: number; field: string }>> = {
  MODERATE: { zone: 'FAT_BURN', credit: 1, field: 'sumInFatBurnHeartZone' },
  VIGOROUS: { zone: 'CARDIO', credit: 2, field: 'sumInCardioHeartZone' },
  PEAK: { zone: 'PEAK', credit: 2, field: 'sumInPeakHeartZone' },
};

export interface SleepSession {
  id: string;
  start: number;
  end: number;
  tz: string;
  date: string;
  stages: Array<{ type: 'AWAKE' | 'LIGHT' | 'DEEP' | 'REM'; start: number; end: number }>;
  minutes: { asleep: number; awake: number; inBed: number; deep: number; light: number; rem: number };
}

/** Positive integer parts of `total` (n of them, or fewer when total < n), pseudo-random sizes. */
function parts(total: number, n: number, next: () => number): number[] {
  const k = Math.max(1, Math.min(n, total));
  const w = Array.from({ length: k }, () => 0.5 + next());
  const ws = sum(w);
  const out = w.map((x) => Math.max(1, Math.floor((x / ws) * total)));
  out[out.length - 1]! += total - sum(out);
  // The last part may have gone below 1 when the others were raised to 1: take from the largest.
  while (out[out.length - 1]! < 1) {
    const i = out.indexOf(Math.max(...out));
    out[i]! -= 1;
    out[out.length - 1]! += 1;
  }
  return out;
}

/** The legacy main sleep of a wake-up date as a Google session with stages. */
export function sleepSession(person: Person, date: string): SleepSession | null {
  const s = fitbitDay(person.dataUserId, date).sleep;
  if (!s) return null;
  const tz = zoneOfDate(person, date);
  const inBed = s.minutesAsleep + s.wake;
  const start = instantOfLocal(tz, s.start.slice(0, 19));
  const next = prng(`${person.dataUserId}:${date}:stages`);
  const cycles = 4 + Math.floor(next() * 2);
  const light = parts(s.light, cycles, next);
  const deep = parts(s.deep, cycles, next);
  const rem = parts(s.rem, cycles, next);
  const wake = parts(s.wake, cycles, next);
  const stages: SleepSession['stages'] = [];
  let t = start;
  const push = (type: SleepSession['stages'][number]['type'], minutes: number | undefined) => {
    if (!minutes) return;
    stages.push({ type, start: t, end: t + minutes * 60_000 });
    t += minutes * 60_000;
  };
  for (let i = 0; i < cycles; i++) {
    push('LIGHT', light[i]);
    push('DEEP', deep[i]);
    push('REM', rem[i]);
    push('AWAKE', wake[i]);
  }
  return {
    // The legacy logId's digits: the same night has the same id on both APIs.
    id: `${date.replaceAll('-', '')}${String(person.dataUserId.charCodeAt(0)).padStart(3, '0')}`,
    start,
    end: start + inBed * 60_000,
    tz,
    date,
    stages,
    minutes: { asleep: s.minutesAsleep, awake: s.wake, inBed, deep: s.deep, light: s.light, rem: s.rem },
  };
}

const trackers = new Map<string, { model: string; formFactor: string }>();
/** The tracker's model and form factor (the legacy devices list's tracker). */
export function trackerOf(dataUserId: string) {
  let t = trackers.get(dataUserId);
  if (!t) {
    const model = fitbitDevices(dataUserId, new Date(0))[0]!.deviceVersion;
    t = { model, formFactor: /Sense|Versa/.test(model) ? 'WATCH' : 'FITNESS_BAND' };
    if (trackers.size > 10_000) trackers.clear();
    trackers.set(dataUserId, t);
  }
  return t;
}

/** The `dataSource` of a point (§3.3). */
export function dataSource(dataUserId: string, source: Source) {
  if (source === 'scale')
    return {
      recordingMethod: 'PASSIVELY_MEASURED',
      device: { displayName: 'Aria Air', formFactor: 'SCALE', manufacturer: 'Fitbit' },
      platform: 'FITBIT',
    };
  if (source === 'phone')
    return {
      recordingMethod: 'PASSIVELY_MEASURED',
      device: { displayName: 'Pixel 8', formFactor: 'PHONE', manufacturer: 'Google' },
      application: { packageName: 'com.fitbit.FitbitMobile' },
      platform: 'FITBIT',
    };
  const { model, formFactor } = trackerOf(dataUserId);
  return {
    recordingMethod: 'PASSIVELY_MEASURED',
    device: { displayName: model, formFactor, manufacturer: 'Fitbit' },
    platform: 'FITBIT',
  };
}

const midnight = (c: DayCtx) => instantOfLocal(c.tz, `${c.date}T00:00`);
const daily = (c: DayCtx, fields: Record<string, unknown>, n?: number): Pt[] => [
  { t: midnight(c), tz: c.tz, date: c.date, source: 'tracker', fields, ...(n !== undefined && { n }) },
];
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Sum of `n` as an int64 string under `field`, or undefined without points. */
const sumOf = (field: string) => (items: Share[]) =>
  items.length === 0
    ? undefined
    : { [field]: String(Math.round(sum(items.map((x) => (x.pt.n ?? 0) * x.share)))) };
const avgOf = (field: string, digits: number) => (items: Share[]) =>
  items.length === 0
    ? undefined
    : { [field]: round(sum(items.map((x) => x.pt.n ?? 0)) / items.length, digits) };

/** Duration types: seconds per level inside the window. */
function secondsByLevel(items: Share[]) {
  const by = new Map<string, number>();
  for (const { pt, share } of items)
    by.set(pt.level!, (by.get(pt.level!) ?? 0) + Math.round((((pt.end ?? pt.t) - pt.t) / 1000) * share));
  return by;
}

function personalRange(
  person: Person,
  endDate: string,
  value: (date: string) => number | null,
): { min: number; max: number } | undefined {
  const vs: number[] = [];
  for (let i = 1; i <= 30; i++) {
    const v = value(addDays(endDate, -i));
    if (v !== null) vs.push(v);
  }
  void person;
  return vs.length ? { min: Math.min(...vs), max: Math.max(...vs) } : undefined;
}

const always = () => true;
const never = () => false;

// ---------------------------------------------------------------- the catalogue

const TYPES: DataTypeSpec[] = [
  {
    id: 'steps',
    record: 'interval',
    scope: 'activity_and_fitness',
    list: always,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 90,
    points: (c) => {
      const minutes = stepMinutes(c);
      const out = minutes.map(({ t, s }) => minutePoint(c, t, { count: String(s) }, s));
      if (c.config.phoneSteps) {
        // The phone counts most of the same walking, minute by minute: overlapping, never summed by Google.
        for (const { m, t, s } of minutes)
          if (m % 3 !== 0)
            out.push(minutePoint(c, t, { count: String(Math.round(s * 0.8)) }, Math.round(s * 0.8), 'phone'));
      }
      return out;
    },
    aggregate: sumOf('countSum'),
  },
  {
    id: 'distance',
    record: 'interval',
    scope: 'activity_and_fitness',
    list: always,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 90,
    points: (c) => {
      const d = fitbitDay(c.person.dataUserId, c.date);
      const minutes = stepMinutes(c);
      const stride = d.distanceKm / Math.max(1, d.steps);
      // The legacy per-minute distance (whole metres), the day's rounding spread so the sum is the legacy total.
      const mm = minutes.map(({ s }) => Math.round(s * stride * 1000) * 1000);
      spread(mm, Math.round(d.distanceKm * 1_000_000) - sum(mm), 1000);
      return minutes.map(({ t }, i) => minutePoint(c, t, { millimeters: String(mm[i]) }, mm[i]!));
    },
    aggregate: sumOf('millimetersSum'),
  },
  {
    id: 'floors',
    record: 'interval',
    scope: 'activity_and_fitness',
    list: (cfg) => cfg.floorsList,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 90,
    points: (c) => {
      const d = fitbitDay(c.person.dataUserId, c.date);
      return stepMinutes(c)
        .slice(0, d.floors)
        .map(({ t }) => minutePoint(c, t, { count: '1' }, 1));
    },
    aggregate: sumOf('countSum'),
  },
  {
    id: 'altitude',
    record: 'interval',
    scope: 'activity_and_fitness',
    list: always,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 90,
    points: (c) => {
      const d = fitbitDay(c.person.dataUserId, c.date);
      // 3.048 m per floor, as the legacy elevation.
      return stepMinutes(c)
        .slice(0, d.floors)
        .map(({ t }) => minutePoint(c, t, { gainMillimeters: '3048' }, 3048));
    },
    aggregate: sumOf('gainMillimetersSum'),
  },
  {
    id: 'total-calories',
    record: 'interval',
    scope: 'activity_and_fitness',
    list: never,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 14,
    points: (c) => calorieCents(c).map(({ t, total }) => minutePoint(c, t, {}, total)),
    aggregate: (items) =>
      items.length === 0 ? undefined : { kcalSum: round(sum(items.map((x) => x.pt.n ?? 0)) / 100, 2) },
  },
  {
    id: 'active-energy-burned',
    record: 'interval',
    scope: 'activity_and_fitness',
    list: always,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 90,
    points: (c) =>
      calorieCents(c)
        .filter((x) => x.active !== 0)
        .map(({ t, active }) => minutePoint(c, t, { kcal: active / 100 }, active)),
    aggregate: (items) =>
      items.length === 0 ? undefined : { kcalSum: round(sum(items.map((x) => x.pt.n ?? 0)) / 100, 2) },
  },
  {
    id: 'activity-level',
    record: 'interval',
    scope: 'activity_and_fitness',
    list: always,
    rollUp: (cfg) => cfg.activityLevelRollUps,
    dailyRollUp: (cfg) => cfg.activityLevelRollUps,
    maxRollUpDays: 90,
    durationValued: true,
    points: (c) =>
      activityChunks(c.person.dataUserId, c.date, c.tz).map((x) => ({
        t: x.start,
        end: x.end,
        tz: c.tz,
        date: c.date,
        source: 'tracker' as const,
        fields: { activityLevelType: x.level },
        level: x.level,
      })),
    aggregate: (items) => {
      if (items.length === 0) return undefined;
      const by = secondsByLevel(items);
      return {
        activityLevelRollupsByActivityLevelType: LEVELS.filter((l) => by.has(l)).map((l) => ({
          activityLevelType: l,
          totalDuration: duration(by.get(l)!),
        })),
      };
    },
  },
  {
    id: 'active-minutes',
    record: 'interval',
    scope: 'activity_and_fitness',
    list: always,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 14,
    durationValued: true,
    points: (c) =>
      activityChunks(c.person.dataUserId, c.date, c.tz).flatMap((x) => {
        const level = ACTIVE_MINUTES_LEVEL[x.level];
        if (!level) return [];
        return [
          {
            t: x.start,
            end: x.end,
            tz: c.tz,
            date: c.date,
            source: 'tracker' as const,
            fields: {
              activeMinutesByActivityLevel: [
                { activityLevel: level, activeMinutes: String(x.minutes.length) },
              ],
            },
            level,
          },
        ];
      }),
    aggregate: (items) => {
      if (items.length === 0) return undefined;
      const by = secondsByLevel(items);
      return {
        activeMinutesRollupByActivityLevel: ['LIGHT', 'MODERATE', 'VIGOROUS']
          .filter((l) => by.has(l))
          .map((l) => ({ activityLevel: l, activeMinutesSum: String(Math.round(by.get(l)! / 60)) })),
      };
    },
  },
  {
    id: 'heart-rate',
    record: 'sample',
    scope: 'health_metrics_and_measurements',
    list: always,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 14,
    points: (c) =>
      heartSamples(c).map(({ t, bpm }) => ({
        t,
        tz: c.tz,
        date: c.date,
        source: 'tracker' as const,
        fields: { beatsPerMinute: String(bpm) },
        n: bpm,
      })),
    aggregate: (items) => {
      if (items.length === 0) return undefined;
      const vs = items.map((x) => x.pt.n!);
      return {
        beatsPerMinuteAvg: round(sum(vs) / vs.length, 4),
        beatsPerMinuteMin: Math.min(...vs),
        beatsPerMinuteMax: Math.max(...vs),
      };
    },
  },
  {
    id: 'daily-heart-rate-zones',
    record: 'daily',
    scope: 'health_metrics_and_measurements',
    list: always,
    rollUp: never,
    dailyRollUp: never,
    maxRollUpDays: 90,
    points: (c) => {
      const zones = hrZones(c.person.dataUserId, c.date);
      return zones
        ? daily(c, {
            heartRateZones: zones.map((z) => ({
              heartRateZoneType: z.zone,
              minBeatsPerMinute: String(z.min),
              maxBeatsPerMinute: String(z.max),
            })),
          })
        : [];
    },
  },
  {
    id: 'time-in-heart-rate-zone',
    record: 'interval',
    scope: 'activity_and_fitness',
    list: always,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 90,
    durationValued: true,
    points: (c) =>
      zoneIntervals(c).map((x) => ({
        t: x.start,
        end: x.end,
        tz: c.tz,
        date: c.date,
        source: 'tracker' as const,
        fields: { heartRateZoneType: x.zone },
        level: x.zone,
      })),
    aggregate: (items) => {
      if (items.length === 0) return undefined;
      const by = secondsByLevel(items);
      return {
        timeInHeartRateZones: HR_ZONES.filter((z) => by.has(z)).map((z) => ({
          heartRateZone: z,
          duration: duration(by.get(z)!),
        })),
      };
    },
  },
  {
    id: 'active-zone-minutes',
    record: 'interval',
    scope: 'activity_and_fitness',
    list: always,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 90,
    points: (c) =>
      zoneIntervals(c).flatMap((x) => {
        const a = AZM[x.zone];
        if (!a) return [];
        const out: Pt[] = [];
        // One point a minute, credit-weighted (1 in fat burn, 2 in cardio and peak).
        for (let t = x.start; t < x.end; t += 60_000)
          out.push({
            ...minutePoint(c, t, { heartRateZone: a.zone, activeZoneMinutes: String(a.credit) }, a.credit),
            level: a.field,
          });
        return out;
      }),
    aggregate: (items) => {
      if (items.length === 0) return undefined;
      const sums: Record<string, number> = {};
      for (const { pt } of items) sums[pt.level!] = (sums[pt.level!] ?? 0) + (pt.n ?? 0);
      return Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, String(v)]));
    },
  },
  {
    id: 'daily-resting-heart-rate',
    record: 'daily',
    scope: 'health_metrics_and_measurements',
    list: always,
    rollUp: never,
    dailyRollUp: always,
    maxRollUpDays: 90,
    points: (c) => {
      const v = fitbitDay(c.person.dataUserId, c.date).restingHeartRate;
      return v === null
        ? []
        : daily(
            c,
            { beatsPerMinute: String(v), dailyRestingHeartRateMetadata: { calculationMethod: 'WITH_SLEEP' } },
            v,
          );
    },
    personalRange: (p, end) => {
      const r = personalRange(p, end, (d) => fitbitDay(p.dataUserId, d).restingHeartRate);
      return r && { restingHeartRatePersonalRange: { beatsPerMinuteMin: r.min, beatsPerMinuteMax: r.max } };
    },
  },
  {
    id: 'daily-heart-rate-variability',
    record: 'daily',
    scope: 'health_metrics_and_measurements',
    list: always,
    rollUp: never,
    dailyRollUp: always,
    maxRollUpDays: 90,
    points: (c) => {
      const v = fitbitDay(c.person.dataUserId, c.date).hrv;
      return v === null
        ? []
        : daily(c, {
            averageHeartRateVariabilityMilliseconds: v.dailyRmssd,
            deepSleepRootMeanSquareOfSuccessiveDifferencesMilliseconds: v.deepRmssd,
          });
    },
    personalRange: (p, end) => {
      const r = personalRange(p, end, (d) => fitbitDay(p.dataUserId, d).hrv?.dailyRmssd ?? null);
      return (
        r && {
          heartRateVariabilityPersonalRange: {
            averageHeartRateVariabilityMillisecondsMin: r.min,
            averageHeartRateVariabilityMillisecondsMax: r.max,
          },
        }
      );
    },
  },
  {
    id: 'oxygen-saturation',
    record: 'sample',
    scope: 'health_metrics_and_measurements',
    list: always,
    rollUp: never,
    dailyRollUp: never,
    maxRollUpDays: 90,
    points: (c) => {
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
      return values.map((v, i) => ({
        t: s.start + i * 60_000,
        tz: s.tz,
        date: c.date,
        source: 'tracker' as const,
        fields: { percentage: v },
        n: v,
      }));
    },
  },
  {
    id: 'daily-oxygen-saturation',
    record: 'daily',
    scope: 'health_metrics_and_measurements',
    list: always,
    rollUp: never,
    dailyRollUp: never,
    maxRollUpDays: 90,
    points: (c) => {
      const o = fitbitDay(c.person.dataUserId, c.date).spo2;
      if (!o) return [];
      // Confidence bounds around the average (not the night's extremes, §6 #13).
      return daily(c, {
        averagePercentage: o.avg,
        lowerBoundPercentage: round(o.avg - 0.8, 1),
        upperBoundPercentage: round(Math.min(100, o.avg + 0.8), 1),
        standardDeviationPercentage: 0.6,
      });
    },
  },
  {
    id: 'daily-respiratory-rate',
    record: 'daily',
    scope: 'health_metrics_and_measurements',
    list: always,
    rollUp: never,
    dailyRollUp: never,
    maxRollUpDays: 90,
    points: (c) => {
      const v = fitbitDay(c.person.dataUserId, c.date).breathingRate;
      return v === null ? [] : daily(c, { breathsPerMinute: v });
    },
  },
  {
    id: 'daily-sleep-temperature-derivations',
    record: 'daily',
    scope: 'health_metrics_and_measurements',
    list: always,
    rollUp: never,
    dailyRollUp: never,
    maxRollUpDays: 90,
    points: (c) => {
      // Absolute values; the legacy nightlyRelative is nightly − baseline (rounded to 0.1 °C).
      const relative = fitbitDay(c.person.dataUserId, c.date).skinTempRelative;
      if (relative === null) return [];
      const baseline = skinBaseline(c.person.dataUserId);
      return daily(c, {
        nightlyTemperatureCelsius: round(baseline + relative, 2),
        baselineTemperatureCelsius: baseline,
        relativeNightlyStddev30dCelsius: 0.35,
      });
    },
  },
  {
    id: 'daily-vo2-max',
    record: 'daily',
    scope: 'activity_and_fitness',
    list: always,
    rollUp: never,
    dailyRollUp: never,
    maxRollUpDays: 90,
    points: (c) => {
      const v = fitbitDay(c.person.dataUserId, c.date).vo2Max;
      if (v === null) return [];
      // Legacy "L-(L+4)" is a demographic estimate: its middle, flagged estimated.
      const low = Number(v.split('-')[0]);
      const vo2 = low + 2;
      const level =
        vo2 < 35 ? 'POOR' : vo2 < 40 ? 'FAIR' : vo2 < 45 ? 'AVERAGE' : vo2 < 50 ? 'GOOD' : 'VERY_GOOD';
      return daily(c, { vo2Max: vo2, estimated: true, cardioFitnessLevel: level });
    },
  },
  {
    id: 'weight',
    record: 'sample',
    scope: 'health_metrics_and_measurements',
    list: always,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 90,
    points: (c) => {
      const kg = fitbitDay(c.person.dataUserId, c.date).weightKg;
      if (kg === null) return [];
      const t = instantOfLocal(c.tz, `${c.date}T07:38:14`);
      const grams = Math.round(kg * 1000);
      return [{ t, tz: c.tz, date: c.date, source: 'scale', fields: { weightGrams: grams }, n: grams }];
    },
    aggregate: avgOf('weightGramsAvg', 3),
  },
  {
    id: 'body-fat',
    record: 'sample',
    scope: 'health_metrics_and_measurements',
    list: always,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 90,
    points: (c) => {
      const pct = fitbitDay(c.person.dataUserId, c.date).fatPct;
      if (pct === null) return [];
      const t = instantOfLocal(c.tz, `${c.date}T07:38:14`);
      return [{ t, tz: c.tz, date: c.date, source: 'scale', fields: { percentage: pct }, n: pct }];
    },
    aggregate: avgOf('bodyFatPercentageAvg', 3),
  },
  {
    id: 'height',
    record: 'sample',
    scope: 'health_metrics_and_measurements',
    list: always,
    rollUp: never,
    dailyRollUp: never,
    maxRollUpDays: 90,
    points: (c) => {
      // Entered once, when the account was made (the legacy BMI's 1.72 m).
      if (c.date !== MEMBER_SINCE) return [];
      const t = instantOfLocal(c.tz, `${c.date}T08:00:00`);
      return [
        { t, tz: c.tz, date: c.date, source: 'tracker', fields: { heightMillimeters: '1720' }, n: 1720 },
      ];
    },
  },
  {
    id: 'sleep',
    record: 'session',
    scope: 'sleep',
    list: always,
    rollUp: never,
    dailyRollUp: never,
    maxRollUpDays: 90,
    pageMax: 25,
    identifiable: true,
    points: (c) => {
      const s = sleepSession(c.person, c.date);
      if (!s) return [];
      return [{ t: s.start, end: s.end, tz: s.tz, date: c.date, source: 'tracker', fields: {}, id: s.id }];
    },
  },
  {
    id: 'exercise',
    record: 'session',
    scope: 'activity_and_fitness',
    list: always,
    rollUp: never,
    dailyRollUp: never,
    maxRollUpDays: 90,
    pageMax: 25,
    identifiable: true,
    points: (c) => {
      // The legacy auto-detected walk (days with 20 or more very active minutes), same id.
      const log = fitbitActivityLog(c.person.dataUserId, c.date);
      if (!log) return [];
      const t = instantOfLocal(c.tz, `${c.date}T${log.startTime.slice(11, 16)}`);
      return [
        {
          t,
          end: t + log.duration,
          tz: c.tz,
          date: c.date,
          source: 'tracker',
          id: String(log.logId),
          fields: {
            exerciseType: 'WALKING',
            displayName: log.activityName,
            activeDuration: duration(log.activeDuration / 1000),
            metricsSummary: {
              caloriesKcal: log.calories,
              distanceMillimeters: String(Math.round(log.distance * 1_000_000)),
              steps: String(log.steps),
              averageHeartRateBeatsPerMinute: String(log.averageHeartRate),
            },
            exerciseMetadata: { hasGps: false },
          },
        },
      ];
    },
  },
  {
    id: 'nutrition-log',
    record: 'session',
    scope: 'nutrition',
    list: always,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 90,
    identifiable: true,
    points: (c) => {
      // The legacy food log of the day: one "Daily meals" entry, same id (logged at 08:00 UTC-as-local).
      const kcal = fitbitDay(c.person.dataUserId, c.date).caloriesIn;
      if (!kcal) return [];
      const t = instantOfLocal(c.tz, `${c.date}T08:00:00`);
      return [
        {
          t,
          end: t + 30 * 60_000,
          tz: c.tz,
          date: c.date,
          source: 'tracker',
          id: String(Date.parse(`${c.date}T08:00:00Z`)),
          fields: { foodDisplayName: 'Daily meals', mealType: 'ANYTIME', energy: { kcal } },
          n: kcal,
        },
      ];
    },
    aggregate: (items) =>
      items.length === 0 ? undefined : { energy: { kcalSum: sum(items.map((x) => x.pt.n ?? 0)) } },
  },
  {
    id: 'hydration-log',
    record: 'session',
    scope: 'nutrition',
    list: always,
    rollUp: always,
    dailyRollUp: always,
    maxRollUpDays: 90,
    identifiable: true,
    points: (c) => {
      const ml = fitbitDay(c.person.dataUserId, c.date).waterMl;
      if (!ml) return [];
      const t = instantOfLocal(c.tz, `${c.date}T12:00:00`);
      return [
        {
          t,
          end: t + 60_000,
          tz: c.tz,
          date: c.date,
          source: 'tracker',
          id: String(Date.parse(`${c.date}T12:00:00Z`)),
          fields: { amountConsumed: { milliliters: ml, userProvidedUnit: 'MILLILITERS' } },
          n: ml,
        },
      ];
    },
    aggregate: (items) =>
      items.length === 0
        ? undefined
        : { amountConsumed: { millilitersSum: sum(items.map((x) => x.pt.n ?? 0)) } },
  },
];

/** The legacy profile's memberSince: no data before it. */
export const MEMBER_SINCE = '2023-01-10';

export const DATA_TYPES = new Map(TYPES.map((t) => [t.id, t]));

/** The three spellings (§3.1): kebab in paths, snake in filters, lowerCamel as the payload key. */
export const snakeOf = (id: string) => id.replaceAll('-', '_');
export const payloadKeyOf = (id: string) => id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const pointMemo = new Map<string, Pt[]>();
/** Points held by the memo: a day of heart rate is ~10,000, so the memo is bounded by points, not days. */
let memoPoints = 0;
const MEMO_MAX_POINTS = 1_000_000;
/** A type's points of one local date for a person, newest first. */
export function pointsOfDate(
  spec: DataTypeSpec,
  person: Person,
  date: string,
  config: GoogleHealthConfig,
): Pt[] {
  if (date < MEMBER_SINCE) return [];
  const tz = zoneOfDate(person, date);
  const key = `${spec.id}:${person.dataUserId}:${date}:${tz}:${config.phoneSteps}:${config.spo2SentinelSamples}`;
  const hit = pointMemo.get(key);
  if (hit) return hit;
  const pts = spec
    .points({ person, date, tz, config })
    .sort((a, b) => b.t - a.t || (a.source === 'tracker' ? -1 : 1));
  if (memoPoints + pts.length > MEMO_MAX_POINTS || pointMemo.size > 5000) {
    pointMemo.clear();
    memoPoints = 0;
  }
  pointMemo.set(key, pts);
  memoPoints += pts.length;
  return pts;
}

/** The instant a filter's physical member compares (interval start, sleep end, sample time). */
export const physicalOf = (spec: DataTypeSpec, p: Pt) => (spec.id === 'sleep' ? p.end! : p.t);
/** The local wall-clock time a civil member compares, `YYYY-MM-DDTHH:mm:ss`. */
export const civilOf = (spec: DataTypeSpec, p: Pt) => {
  p.civil ??= localAt(p.tz, physicalOf(spec, p));
  return p.civil;
};
