/*
 * Device data rules without zod (core §5, §8, §9): every message, the unit
 * conversions, the tracker resource-path allow-list and the overview
 * subjects. Apart from device-data.ts (which re-exports all of it) so that a
 * page using only these does not build the module's zod schemas: Rollup
 * keeps every top-level schema of a module it includes, and zod's code for
 * them would land in the entry chunk every page loads.
 */

import { addDays, daysFrom } from '@trialwear/zone';
import { CONVERSIONS } from './constants.js';
import { FITBIT_BODY_PERIODS, type FitbitBodyPeriod, fitbitBodyPeriodStart } from './fitbit-body-periods.js';

// ---------------------------------------------------------------- messages

export const DATA_MESSAGES = {
  fitbitFailed: (message: string) => `Getting data from Fitbit server failed! - ${message}`,
  noData: 'Could not find any data!',
  fitbitRequestFailed: 'Error: Fitbit request failed!',
  fitbitParamsMissing: 'Error: Fitbit data request - some parameters are missing',
  tooManyRequests: 'Too Many Requests',
  omronFailed: 'Error: getting data from Omron server failed!',
  omronPrepareFailed: 'Error: Could not prepare Omron data for display.',
  dexcomFailed: 'Error: getting data from Dexcom server failed!',
  noDataAvailable: 'No data available',
  noDataToDisplay: 'No data to display',
  participantNotFound: "Something went wrong! We could not find participant's info.",
  trialNotFound: "Something went wrong! We could not find trial's info.",
  /** The participant has no usable authorization for this provider (never authorized, revoked, refresh refused). */
  notAuthorized:
    'The participant has not authorized access to this device, or the authorization was revoked.',
  unknownResource: 'Unknown resource path',
} as const;

/** Tracker query form (core §5). */
export const TRACKER_FORM_MESSAGES = {
  period: 'Please select a period',
  startDate: 'Please select a start date',
  endDate: 'Please select an end date',
  time: 'Please add start and end time',
  endBeforeStart: 'End date cannot be before start date',
  future: 'Date cannot be in the future',
} as const;

/** Scale form (core §5). */
export const SCALE_FORM_MESSAGES = {
  category: 'Please select a Category',
  startDate: 'Please select a Start Date',
  limit: 'Please select an option from the Results Limit',
  future: 'Start date cannot be in the future',
} as const;

// ------------------------------------------------------------- conversions

/** kg → lb, one decimal (core §9). */
export const kgToLb = (kg: number) => Math.round(kg * CONVERSIONS.kgToLb * 10) / 10;
/** km → miles: divided by 1.609 (core §9), shown with two decimals. */
export const kmToMiles = (km: number) => Math.round((km / CONVERSIONS.kmPerMile) * 100) / 100;

/**
 * The stored metrics the pages show in another unit than the provider's
 * (core §9's conversions), with that unit and the figure as the pages round
 * it: the export's display_value and display_unit columns (decision 044).
 * Every other metric is shown in its stored unit.
 */
export const DISPLAY_UNITS: Readonly<Record<string, { unit: string; convert: (stored: number) => number }>> =
  {
    // `+ 0`: a -0 (a tiny negative rounded) is 0, as the pages print it.
    distance: { unit: 'mi', convert: (km) => kmToMiles(km) + 0 },
    weight: { unit: 'Lbs', convert: (kg) => kgToLb(kg) + 0 },
  };

// ------------------------------------------------------ Fitbit resource paths

const DATE = String.raw`\d{4}-\d{2}-\d{2}`;
const TIME = String.raw`\d{2}:\d{2}`;

/** Activity time-series resources (providers.md §1.7.2), also under /activities/tracker/. */
export const FITBIT_ACTIVITY_RESOURCES = [
  'steps',
  'distance',
  'floors',
  'elevation',
  'calories',
  'caloriesBMR',
  'activityCalories',
  'minutesSedentary',
  'minutesLightlyActive',
  'minutesFairlyActive',
  'minutesVeryActive',
] as const;
export const FITBIT_BODY_RESOURCES = ['weight', 'fat', 'bmi'] as const;
export const FITBIT_FOOD_RESOURCES = ['caloriesIn', 'water'] as const;
export const FITBIT_HEART_DETAIL_LEVELS = ['1sec', '1min', '5min', '15min'] as const;
export const FITBIT_INTRADAY_DETAIL_LEVELS = ['1min', '5min', '15min'] as const;

/**
 * What a tracker resource path reads, once it matched the allow-list. `api`
 * is the provider path (version prefix included) the server calls; the
 * dates are the range it covers, checked against the provider's maximum.
 */
export interface FitbitResource {
  kind:
    | 'overview'
    | 'activity-series'
    | 'activity-day'
    | 'activity-intraday'
    | 'activity-logs'
    | 'heart-series'
    | 'heart-intraday'
    | 'sleep-range'
    | 'sleep-list'
    | 'body-series'
    | 'body-log'
    | 'foods-series'
    | 'foods-day'
    | 'spo2'
    | 'cardioscore'
    | 'hrv'
    | 'hrv-intraday'
    | 'br'
    | 'temp-skin';
  api: string;
  start?: string;
  end?: string;
  /** Longest range in days the provider accepts for this resource (providers.md §1.7). */
  maxDays?: number;
}

const LIST_QUERY = String.raw`(?:beforeDate|afterDate)=${DATE}(?:T${TIME}:\d{2})?&sort=(?:asc|desc)&limit=\d{1,3}&offset=0`;
const ACT = FITBIT_ACTIVITY_RESOURCES.join('|');

/** The allow-list: [pattern, build]. Patterns are anchored; nothing else is ever forwarded. */
const FITBIT_PATTERNS: Array<[RegExp, (m: RegExpMatchArray) => FitbitResource]> = [
  [/^\/overview$/, () => ({ kind: 'overview', api: '' })],
  [
    new RegExp(`^/activities/(tracker/)?(${ACT})/date/(${DATE})/(${DATE})\\.json$`),
    (m) => ({
      kind: 'activity-series',
      api: `/1/user/-${m[0]}`,
      start: m[3],
      end: m[4],
      maxDays: m[2] === 'activityCalories' ? 30 : 1095,
    }),
  ],
  [
    new RegExp(`^/activities/date/(${DATE})\\.json$`),
    (m) => ({ kind: 'activity-day', api: `/1/user/-${m[0]}`, start: m[1], end: m[1] }),
  ],
  [
    new RegExp(
      `^/activities/(steps|distance|floors|elevation|calories)/date/(${DATE})/1d/(1min|5min|15min)(?:/time/${TIME}/${TIME})?\\.json$`,
    ),
    (m) => ({ kind: 'activity-intraday', api: `/1/user/-${m[0]}`, start: m[2], end: m[2], maxDays: 1 }),
  ],
  [
    new RegExp(`^/activities/list\\.json\\?${LIST_QUERY}$`),
    (m) => ({ kind: 'activity-logs', api: `/1/user/-${m[0]}` }),
  ],
  [
    new RegExp(`^/activities/heart/date/(${DATE})/(${DATE})\\.json$`),
    (m) => ({ kind: 'heart-series', api: `/1/user/-${m[0]}`, start: m[1], end: m[2], maxDays: 365 }),
  ],
  [
    new RegExp(
      `^/activities/heart/date/(${DATE})/1d/(1sec|1min|5min|15min)(?:/time/${TIME}/${TIME})?\\.json$`,
    ),
    (m) => ({ kind: 'heart-intraday', api: `/1/user/-${m[0]}`, start: m[1], end: m[1], maxDays: 1 }),
  ],
  [
    new RegExp(`^/sleep/date/(${DATE})/(${DATE})\\.json$`),
    (m) => ({ kind: 'sleep-range', api: `/1.2/user/-${m[0]}`, start: m[1], end: m[2], maxDays: 100 }),
  ],
  [
    new RegExp(`^/sleep/list\\.json\\?${LIST_QUERY}$`),
    (m) => ({ kind: 'sleep-list', api: `/1.2/user/-${m[0]}` }),
  ],
  [
    new RegExp(`^/body/(weight|fat|bmi)/date/(${DATE})/(${DATE})\\.json$`),
    (m) => ({
      kind: 'body-series',
      api: `/1/user/-${m[0]}`,
      start: m[2],
      end: m[3],
      maxDays: m[1] === 'bmi' ? 1095 : m[1] === 'fat' ? 30 : 31,
    }),
  ],
  [
    new RegExp(`^/body/(weight|fat|bmi)/date/(${DATE})/(${FITBIT_BODY_PERIODS.join('|')})\\.json$`),
    (m) => ({
      kind: 'body-series',
      api: `/1/user/-${m[0]}`,
      start: fitbitBodyPeriodStart(m[2]!, m[3] as FitbitBodyPeriod),
      end: m[2],
    }),
  ],
  [
    new RegExp(`^/body/log/(weight|fat)/date/(${DATE})/(${DATE})\\.json$`),
    (m) => ({
      kind: 'body-log',
      api: `/1/user/-${m[0]}`,
      start: m[2],
      end: m[3],
      maxDays: m[1] === 'fat' ? 30 : 31,
    }),
  ],
  [
    new RegExp(`^/foods/log/(caloriesIn|water)/date/(${DATE})/(${DATE})\\.json$`),
    (m) => ({ kind: 'foods-series', api: `/1/user/-${m[0]}`, start: m[2], end: m[3], maxDays: 1095 }),
  ],
  [
    new RegExp(`^/foods/log/date/(${DATE})\\.json$`),
    (m) => ({ kind: 'foods-day', api: `/1/user/-${m[0]}`, start: m[1], end: m[1] }),
  ],
  [
    new RegExp(`^/spo2/date/(${DATE})/(${DATE})\\.json$`),
    (m) => ({ kind: 'spo2', api: `/1/user/-${m[0]}`, start: m[1], end: m[2], maxDays: 1095 }),
  ],
  [
    new RegExp(`^/cardioscore/date/(${DATE})/(${DATE})\\.json$`),
    (m) => ({ kind: 'cardioscore', api: `/1/user/-${m[0]}`, start: m[1], end: m[2], maxDays: 30 }),
  ],
  [
    new RegExp(`^/hrv/date/(${DATE})/(${DATE})\\.json$`),
    (m) => ({ kind: 'hrv', api: `/1/user/-${m[0]}`, start: m[1], end: m[2], maxDays: 30 }),
  ],
  [
    // HRV intraday: each night's 5-minute samples, under its wake-up date (max 30 days).
    new RegExp(`^/hrv/date/(${DATE})/(${DATE})/all\\.json$`),
    (m) => ({ kind: 'hrv-intraday', api: `/1/user/-${m[0]}`, start: m[1], end: m[2], maxDays: 30 }),
  ],
  [
    new RegExp(`^/br/date/(${DATE})/(${DATE})\\.json$`),
    (m) => ({ kind: 'br', api: `/1/user/-${m[0]}`, start: m[1], end: m[2], maxDays: 30 }),
  ],
  [
    new RegExp(`^/temp/skin/date/(${DATE})/(${DATE})\\.json$`),
    (m) => ({ kind: 'temp-skin', api: `/1/user/-${m[0]}`, start: m[1], end: m[2], maxDays: 30 }),
  ],
];

/** A real calendar date (2026-02-29 is not). */
export const isRealDate = (d: string) => {
  const t = Date.parse(`${d}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === d;
};

/** Days from start to end inclusive (calendar dates, no time zone involved). */
export function daysInclusive(start: string, end: string): number {
  return daysFrom(start, end) + 1;
}

/**
 * Match a tracker resource path (core §7, the path after `/user/-`) against
 * the allow-list. Null when it is not one the portal knows, has an impossible
 * date, an end before its start, or a range longer than the provider allows.
 */
export function parseFitbitResourcePath(path: string): FitbitResource | null {
  if (path.length > 300) return null;
  for (const [re, build] of FITBIT_PATTERNS) {
    const m = path.match(re);
    if (!m) continue;
    const r = build(m);
    for (const d of path.match(new RegExp(DATE, 'g')) ?? []) if (!isRealDate(d)) return null;
    if (r.start && r.end) {
      const days = daysInclusive(r.start, r.end);
      if (days < 1) return null;
      if (r.maxDays && days > r.maxDays) return null;
    }
    return r;
  }
  return null;
}

// ------------------------------------------------------------ overview subjects

/** The subjects of the overview tiles and of the local summary (core §3). */
export const SUMMARY_SUBJECTS = [
  'steps',
  'distance',
  'floors',
  'restingHeartRate',
  'sleepDuration',
  'weight',
] as const;
export type SummarySubject = (typeof SUMMARY_SUBJECTS)[number];

/** Units the provider delivers, per subject (conversion happens at display). */
export const SUMMARY_UNITS: Record<SummarySubject, string> = {
  steps: 'steps',
  distance: 'km',
  floors: 'floors',
  restingHeartRate: 'bpm',
  sleepDuration: 'min',
  weight: 'kg',
};

// ------------------------------------------------- long ranges (issue #21 §3)

/** Longest range the data page may ask for in one request of a stitchable resource (a leap year). */
export const FITBIT_STITCH_MAX_DAYS = 366;
/** Resources whose answer is lists per date, so windows of the provider's maximum can be joined. */
const STITCHABLE: ReadonlySet<FitbitResource['kind']> = new Set([
  'activity-series',
  'heart-series',
  'sleep-range',
  'body-series',
  'body-log',
  'spo2',
  'cardioscore',
  'hrv',
  'br',
  'temp-skin',
]);

/**
 * A tracker path the data routes accept: one the provider takes in one call
 * (`windows` is that path alone), or a date range longer than the provider's
 * maximum for a resource answered as lists per date, up to
 * FITBIT_STITCH_MAX_DAYS: then `windows` are the provider paths of the
 * provider's longest range each, oldest first, which the server reads one
 * after the other and joins. Null when not allowed.
 */
export function parseFitbitTrackerPath(path: string): { resource: FitbitResource; windows: string[] } | null {
  const strict = parseFitbitResourcePath(path);
  if (strict) return { resource: strict, windows: [path] };
  const m = path.match(new RegExp(`^(.*)/date/(${DATE})/(${DATE})\\.json$`));
  if (!m || path.length > 300) return null;
  const [, head, start, end] = m as unknown as [string, string, string, string];
  const days = daysInclusive(start, end);
  if (days < 1 || days > FITBIT_STITCH_MAX_DAYS) return null;
  // The first window tells the resource and its maximum (an allowed path of the same shape).
  const first = parseFitbitResourcePath(`${head}/date/${start}/${start}.json`);
  if (!first?.maxDays || !STITCHABLE.has(first.kind) || !isRealDate(end)) return null;
  const windows: string[] = [];
  for (let s = start; s <= end; s = addDays(s, first.maxDays)) {
    const e = addDays(s, first.maxDays - 1);
    windows.push(`${head}/date/${s}/${e < end ? e : end}.json`);
  }
  if (!windows.every((w) => parseFitbitResourcePath(w))) return null;
  return { resource: { ...first, api: `/1/user/-${path}`, start, end }, windows };
}

export * from './fitbit-body-periods.js';
export * from './provider-limits.js';
