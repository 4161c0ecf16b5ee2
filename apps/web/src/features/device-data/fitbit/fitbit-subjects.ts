/*
 * What the Fitbit data page can show (core §2, §3): categories and their
 * subjects, the allow-listed resource paths each reads (split into the
 * provider's longest range), how a day's value is read from Fitbit's own
 * JSON (provider units) and how it is converted at display (kg→lb, km→mi,
 * ml→fl oz). Charts take colour and kind from the shared CHART_SUBJECTS.
 */
import {
  daysInclusive,
  FITBIT_BODY_MAX_DAYS,
  FITBIT_STITCH_MAX_DAYS,
  fitbitBodyPeriodFor,
  kgToLb,
  kmToMiles,
  parseFitbitTrackerPath,
} from '@trialwear/contract';
import { datesBetween } from '@trialwear/zone';
import type { ChartSubjectKey } from '../../../components/chart';
import { splitRange } from './periods';

export const TRACKER_CATEGORIES = [
  'overview',
  'activities',
  'sleep',
  'heart',
  'body',
  'foods',
  'healthMetrics',
] as const;
export type TrackerCategory = (typeof TRACKER_CATEGORIES)[number];

export const CATEGORY_LABELS: Record<TrackerCategory, string> = {
  overview: 'Overview',
  activities: 'Activities',
  sleep: 'Sleep',
  heart: 'Heart',
  body: 'Body',
  foods: 'Foods',
  healthMetrics: 'Health metrics',
};

/** One local day of a subject: `value` in display units, `text` when the provider's value is not a number. */
export interface DayRow {
  date: string;
  value: number | null;
  text?: string;
}

export interface FitbitSubject {
  category: Exclude<TrackerCategory, 'overview'>;
  label: string;
  chart: ChartSubjectKey;
  /** Unit shown (after conversion). */
  unit: string;
  /** Longest range one request may cover (providers.md §1.7). */
  maxDays: number;
  /** Resource paths for one sub-range (each accepted by the contract's allow-list). */
  paths: (start: string, end: string) => string[];
  /** Values per date from the answers' `data`, in provider units (dates outside the answers are absent). */
  read: (data: unknown[]) => Map<string, { value: number | null; text?: string }>;
  /** Provider unit → display unit. */
  display: (v: number) => number;
}

type Json = Record<string, unknown>;
const list = (d: unknown, key: string): Json[] => {
  const v = (d as Json | null)?.[key];
  return Array.isArray(v) ? (v as Json[]) : [];
};
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

/** `{"activities-steps":[{dateTime, value:"1234"}]}`-style time series; several paths' values are summed. */
const timeSeries =
  (keys: string[]) =>
  (data: unknown[]): Map<string, { value: number | null }> => {
    const out = new Map<string, { value: number | null }>();
    data.forEach((d, i) => {
      for (const row of list(d, keys[i % keys.length]!)) {
        const date = String(row.dateTime);
        const v = num(row.value);
        const prev = out.get(date)?.value ?? null;
        out.set(date, { value: v === null ? prev : (prev ?? 0) + v });
      }
    });
    return out;
  };

const identity = (v: number) => v;
const ACTIVE = ['minutesLightlyActive', 'minutesFairlyActive', 'minutesVeryActive'] as const;
const ML_PER_FL_OZ = 29.5735;

export const FITBIT_SUBJECTS = {
  steps: {
    category: 'activities',
    label: 'Steps',
    chart: 'steps',
    unit: 'steps',
    maxDays: 1095,
    paths: (s, e) => [`/activities/steps/date/${s}/${e}.json`],
    read: timeSeries(['activities-steps']),
    display: identity,
  },
  totalTrackerActiveMinutes: {
    category: 'activities',
    label: 'Active minutes',
    chart: 'activeMinutes',
    unit: 'min',
    maxDays: 1095,
    // The tracker's lightly + fairly + very active minutes of each day.
    paths: (s, e) => ACTIVE.map((r) => `/activities/tracker/${r}/date/${s}/${e}.json`),
    read: timeSeries(ACTIVE.map((r) => `activities-tracker-${r}`)),
    display: identity,
  },
  distance: {
    category: 'activities',
    label: 'Distance',
    chart: 'distance',
    unit: 'mi',
    maxDays: 1095,
    paths: (s, e) => [`/activities/distance/date/${s}/${e}.json`],
    read: timeSeries(['activities-distance']),
    display: kmToMiles,
  },
  floors: {
    category: 'activities',
    label: 'Floors',
    chart: 'floors',
    unit: 'floors',
    maxDays: 1095,
    paths: (s, e) => [`/activities/floors/date/${s}/${e}.json`],
    read: timeSeries(['activities-floors']),
    display: identity,
  },
  duration: {
    category: 'sleep',
    label: 'Sleep duration',
    chart: 'sleepDuration',
    unit: 'min',
    maxDays: 100,
    paths: (s, e) => [`/sleep/date/${s}/${e}.json`],
    read: (data) => {
      // Minutes asleep per night, naps included, on the date the sleep ended (Fitbit's dateOfSleep).
      const out = new Map<string, { value: number | null }>();
      for (const d of data)
        for (const log of list(d, 'sleep')) {
          const date = String(log.dateOfSleep);
          out.set(date, { value: (out.get(date)?.value ?? 0) + (num(log.minutesAsleep) ?? 0) });
        }
      return out;
    },
    display: identity,
  },
  restingHeartRate: {
    category: 'heart',
    label: 'Resting heart rate',
    chart: 'restingHeartRate',
    unit: 'bpm',
    maxDays: 366,
    paths: (s, e) => [`/activities/heart/date/${s}/${e}.json`],
    read: (data) => {
      const out = new Map<string, { value: number | null }>();
      for (const d of data)
        for (const row of list(d, 'activities-heart'))
          out.set(String(row.dateTime), { value: num((row.value as Json | undefined)?.restingHeartRate) });
      return out;
    },
    display: identity,
  },
  weight: {
    category: 'body',
    label: 'Weight',
    chart: 'weight',
    unit: 'Lbs',
    maxDays: FITBIT_BODY_MAX_DAYS,
    // Fitbit's weight time series, one value a day (the chart and table show a day's weight, not
    // each weigh-in): up to 31 days the range itself, longer the smallest period ending at `e`
    // that covers it, one call where the logs need one per 31 days (issue #21 §3); the days
    // before `s` are dropped by rowsFor.
    paths: (s, e) => {
      if (daysInclusive(s, e) <= 31) return [`/body/weight/date/${s}/${e}.json`];
      return [`/body/weight/date/${e}/${fitbitBodyPeriodFor(s, e) ?? 'max'}.json`];
    },
    read: (data) => {
      // A day without a weighing is "0" in the series: no value that day.
      const out = new Map<string, { value: number | null }>();
      for (const d of data)
        for (const row of list(d, 'body-weight')) {
          const kg = num(row.value);
          out.set(String(row.dateTime), { value: kg !== null && kg > 0 ? kg : null });
        }
      return out;
    },
    display: kgToLb,
  },
  caloriesIn: {
    category: 'foods',
    label: 'Calories in',
    chart: 'caloriesIn',
    unit: 'kcal',
    maxDays: 1095,
    paths: (s, e) => [`/foods/log/caloriesIn/date/${s}/${e}.json`],
    read: timeSeries(['foods-log-caloriesIn']),
    display: identity,
  },
  water: {
    category: 'foods',
    label: 'Water',
    chart: 'water',
    unit: 'fl oz',
    maxDays: 1095,
    paths: (s, e) => [`/foods/log/water/date/${s}/${e}.json`],
    read: timeSeries(['foods-log-water']),
    // Metric answers give millilitres.
    display: (ml) => Math.round((ml / ML_PER_FL_OZ) * 10) / 10,
  },
  spo2: {
    category: 'healthMetrics',
    label: 'SpO2 (average)',
    chart: 'spo2',
    unit: '%',
    maxDays: 1095,
    paths: (s, e) => [`/spo2/date/${s}/${e}.json`],
    read: (data) => {
      const out = new Map<string, { value: number | null }>();
      for (const d of data)
        for (const row of Array.isArray(d) ? (d as Json[]) : [])
          out.set(String(row.dateTime), { value: num((row.value as Json | undefined)?.avg) });
      return out;
    },
    display: identity,
  },
  vo2Max: {
    category: 'healthMetrics',
    label: 'Cardio score (VO2 max)',
    chart: 'vo2Max',
    unit: 'mL/kg/min',
    maxDays: 30,
    paths: (s, e) => [`/cardioscore/date/${s}/${e}.json`],
    read: (data) => {
      // A range string ("44-48") without GPS runs, a number with them: charted at its middle.
      const out = new Map<string, { value: number | null; text?: string }>();
      for (const d of data)
        for (const row of list(d, 'cardioScore')) {
          const text = String((row.value as Json | undefined)?.vo2Max ?? '');
          const parts = text.split('-').map(Number);
          const value = parts.every(Number.isFinite) ? parts.reduce((a, b) => a + b, 0) / parts.length : null;
          out.set(String(row.dateTime), { value, text });
        }
      return out;
    },
    display: identity,
  },
} as const satisfies Record<string, FitbitSubject>;

export type FitbitSubjectKey = keyof typeof FITBIT_SUBJECTS;
export const subjectKeys = Object.keys(FITBIT_SUBJECTS) as FitbitSubjectKey[];

export const subjectsOf = (category: TrackerCategory): FitbitSubjectKey[] =>
  subjectKeys.filter((k) => FITBIT_SUBJECTS[k].category === category);

export const isSubject = (s: string | null | undefined): s is FitbitSubjectKey =>
  !!s && Object.hasOwn(FITBIT_SUBJECTS, s);

/** Every resource path a subject needs for a range, in order, each one the allow-list accepts. */
export function pathsFor(subject: FitbitSubjectKey, start: string, end: string): string[] {
  const s: FitbitSubject = FITBIT_SUBJECTS[subject];
  // Up to a year is one request per path: the server reads a range longer than the provider's
  // maximum as its windows, one after the other (issue #21), never a fan-out of parallel calls.
  const paths = splitRange(start, end, Math.max(s.maxDays, FITBIT_STITCH_MAX_DAYS)).flatMap((r) =>
    s.paths(r.start, r.end),
  );
  for (const p of paths)
    if (!parseFitbitTrackerPath(p)) throw new Error(`Not an allowed resource path: ${p}`);
  return paths;
}

/** One row per date of the range, in display units; a day the provider did not report has null. */
export function rowsFor(subject: FitbitSubjectKey, start: string, end: string, data: unknown[]): DayRow[] {
  const s: FitbitSubject = FITBIT_SUBJECTS[subject];
  const byDate = s.read(data);
  return datesBetween(start, end).map((date) => {
    const v = byDate.get(date);
    const value = v?.value ?? null;
    return { date, value: value === null ? null : s.display(value), ...(v?.text ? { text: v.text } : {}) };
  });
}
