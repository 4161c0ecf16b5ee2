/*
 * What the Fitbit data page can show (core §2, §3): categories and their
 * subjects, the allow-listed resource paths each reads (split into the
 * provider's longest range), how a day's value is read from the answers'
 * normalized series (decision 030: metric keys, provider units; never the
 * provider's own JSON) and how it is converted at display (kg→lb, km→mi,
 * ml→fl oz). Charts take colour and kind from the shared CHART_SUBJECTS.
 */
import {
  daysInclusive,
  FITBIT_BODY_MAX_DAYS,
  FITBIT_STITCH_MAX_DAYS,
  fitbitBodyPeriodFor,
  joinSeries,
  kgToLb,
  kmToMiles,
  parseFitbitTrackerPath,
  type Series,
  seriesOf,
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
  /** Values per date from the answers' series (joined), in provider units (dates outside the answers are absent). */
  read: (series: readonly Series[]) => Map<string, SubjectValue>;
  /** Provider unit → display unit. */
  display: (v: number) => number;
}

/** A day's value in provider units, and the provider's text when the value is not a plain number. */
export type SubjectValue = { value: number | null; text?: string };

const daysOf = (series: readonly Series[], metric: string) => seriesOf(series, metric)?.days ?? [];

/**
 * Daily values of one or more metrics (activity series; several metrics' values of a date are
 * summed). A date listed without a number stays null unless another metric has one that date; a
 * date no series lists is absent.
 */
const daily =
  (metrics: readonly string[]) =>
  (series: readonly Series[]): Map<string, SubjectValue> => {
    const out = new Map<string, SubjectValue>();
    for (const metric of metrics)
      for (const d of daysOf(series, metric)) {
        const prev = out.get(d.date)?.value ?? null;
        out.set(d.date, { value: d.value === null ? prev : (prev ?? 0) + d.value });
      }
    return out;
  };

const identity = (v: number) => v;
const ACTIVE = ['minutesLightlyActive', 'minutesFairlyActive', 'minutesVeryActive'] as const;
const ACTIVE_METRICS = ['minutes_lightly_active', 'minutes_fairly_active', 'minutes_very_active'] as const;
const ML_PER_FL_OZ = 29.5735;

export const FITBIT_SUBJECTS = {
  steps: {
    category: 'activities',
    label: 'Steps',
    chart: 'steps',
    unit: 'steps',
    maxDays: 1095,
    paths: (s, e) => [`/activities/steps/date/${s}/${e}.json`],
    read: daily(['steps']),
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
    read: daily(ACTIVE_METRICS),
    display: identity,
  },
  distance: {
    category: 'activities',
    label: 'Distance',
    chart: 'distance',
    unit: 'mi',
    maxDays: 1095,
    paths: (s, e) => [`/activities/distance/date/${s}/${e}.json`],
    read: daily(['distance']),
    display: kmToMiles,
  },
  floors: {
    category: 'activities',
    label: 'Floors',
    chart: 'floors',
    unit: 'floors',
    maxDays: 1095,
    paths: (s, e) => [`/activities/floors/date/${s}/${e}.json`],
    read: daily(['floors']),
    display: identity,
  },
  duration: {
    category: 'sleep',
    label: 'Sleep duration',
    chart: 'sleepDuration',
    unit: 'min',
    maxDays: 100,
    paths: (s, e) => [`/sleep/date/${s}/${e}.json`],
    read: (series) => {
      // Minutes asleep per night, naps included (every sleep_duration point), on the point's date:
      // the date the sleep ended (Fitbit's dateOfSleep). A sleep without minutes adds 0.
      const out = new Map<string, SubjectValue>();
      for (const p of seriesOf(series, 'sleep_duration')?.points ?? [])
        out.set(p.date, { value: (out.get(p.date)?.value ?? 0) + (p.value ?? 0) });
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
    // A listed day without a resting heart rate is null.
    read: daily(['resting_heart_rate']),
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
    // A day without a weighing is null (the provider module's rule for Fitbit's "0"); null stays null.
    read: daily(['weight']),
    display: kgToLb,
  },
  caloriesIn: {
    category: 'foods',
    label: 'Calories in',
    chart: 'caloriesIn',
    unit: 'kcal',
    maxDays: 1095,
    paths: (s, e) => [`/foods/log/caloriesIn/date/${s}/${e}.json`],
    read: daily(['calories_in']),
    display: identity,
  },
  water: {
    category: 'foods',
    label: 'Water',
    chart: 'water',
    unit: 'fl oz',
    maxDays: 1095,
    paths: (s, e) => [`/foods/log/water/date/${s}/${e}.json`],
    read: daily(['water']),
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
    // The night's average (min and max are in the day's detail).
    read: daily(['spo2']),
    display: identity,
  },
  vo2Max: {
    category: 'healthMetrics',
    label: 'Cardio score (VO2 max)',
    chart: 'vo2Max',
    unit: 'mL/kg/min',
    maxDays: 30,
    paths: (s, e) => [`/cardioscore/date/${s}/${e}.json`],
    read: (series) => {
      // A range ("44-48") without GPS runs, a number with them: the value is the middle of a range
      // (computed by the provider module), the table shows the provider's text.
      const out = new Map<string, SubjectValue>();
      for (const d of daysOf(series, 'cardio_score'))
        out.set(d.date, { value: d.value, ...(d.text !== undefined ? { text: d.text } : {}) });
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

/**
 * One row per date of the range, in display units; a day the provider did not report has null.
 * `answers`: each answer's series (the subject's paths over its sub-ranges), joined by metric.
 */
export function rowsFor(
  subject: FitbitSubjectKey,
  start: string,
  end: string,
  answers: readonly (readonly Series[])[],
): DayRow[] {
  const s: FitbitSubject = FITBIT_SUBJECTS[subject];
  const byDate = s.read(joinSeries(answers));
  return datesBetween(start, end).map((date) => {
    const v = byDate.get(date);
    const value = v?.value ?? null;
    return { date, value: value === null ? null : s.display(value), ...(v?.text ? { text: v.text } : {}) };
  });
}
