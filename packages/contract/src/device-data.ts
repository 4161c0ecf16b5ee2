/*
 * Device data (core §2, §3, §5, §7, §8, §9): the tracker resource paths the
 * portal may forward (an allow-list, never a URL), the scale and glucose
 * queries, the answers of the data calls, the local summary, the raw answer
 * and every message. Server and web both read these: the server validates
 * with them, the web builds its requests with the same functions.
 *
 * Values keep the provider's units (Fitbit metric: km, kg; Omron kg, mmHg;
 * Dexcom mg/dL); pages convert at display (`kgToLb`, `kmToMiles`).
 */
import { z } from 'zod';
import { CONVERSIONS } from './constants.js';

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
    | 'br';
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
    new RegExp(`^/br/date/(${DATE})/(${DATE})\\.json$`),
    (m) => ({ kind: 'br', api: `/1/user/-${m[0]}`, start: m[1], end: m[2], maxDays: 30 }),
  ],
];

const isRealDate = (d: string) => {
  const t = Date.parse(`${d}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === d;
};

/** Days from start to end inclusive (calendar dates, no time zone involved). */
export function daysInclusive(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
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

export const fitbitResourcePathSchema = z
  .string()
  .refine((p) => parseFitbitResourcePath(p) !== null, { message: DATA_MESSAGES.unknownResource });

// ------------------------------------------------------------ answers

/**
 * GET /api/getFitbitServerParticipantData/{participantId}/{email}/{resourcePath}
 * (resourcePath URL-encoded as one segment). `data` is Fitbit's own JSON for
 * that path, or the overview (below) for `/overview`. `timeZone` is the
 * participant's IANA zone from the Fitbit profile: every date in `data` is a
 * local date in that zone.
 */
export const trackerDataResultSchema = z.object({
  participantId: z.number(),
  resourcePath: z.string(),
  timeZone: z.string(),
  data: z.unknown(),
});
export type TrackerDataResult = z.infer<typeof trackerDataResultSchema>;

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

const dayValueSchema = z.object({ date: z.string(), value: z.number().nullable() });
export type DayValue = z.infer<typeof dayValueSchema>;

const windowStatsSchema = z.object({
  /** First and last local date of the window. */
  from: z.string(),
  to: z.string(),
  /** Days with a recorded value (a step count of 0 is "not worn", not a value). */
  days: z.number(),
  /** Sum over days with a value; null when there is none. */
  total: z.number().nullable(),
  /** total / days, rounded to 2 decimals; null when there is no day with a value. */
  average: z.number().nullable(),
});
export type WindowStats = z.infer<typeof windowStatsSchema>;

/**
 * The local summary record (core §3): for each subject the averages and
 * totals of the last 7 days (ending on the participant's local yesterday…
 * today, see `to`) and of the 7 days before, computed on the server from
 * provider data.
 */
export const localSummarySchema = z.object({
  participantId: z.number(),
  timeZone: z.string(),
  computedAt: z.string(),
  subjects: z.record(
    z.enum(SUMMARY_SUBJECTS),
    z.object({ unit: z.string(), last7: windowStatsSchema, previous7: windowStatsSchema }),
  ),
});
export type LocalSummary = z.infer<typeof localSummarySchema>;

/** GET /api/fitbitDataLocalDB/{id}: the stored summary, or null when none was saved yet. */
export const localSummaryResultSchema = z.object({ summary: localSummarySchema.nullable() });

/** `data` of the `/overview` resource: 14 local days per subject (oldest first) and their summary. */
export const trackerOverviewSchema = z.object({
  series: z.record(z.enum(SUMMARY_SUBJECTS), z.array(dayValueSchema)),
  summary: localSummarySchema,
});
export type TrackerOverview = z.infer<typeof trackerOverviewSchema>;

// ------------------------------------------------------------ Omron

export const OMRON_CATEGORIES = ['bloodPressure', 'weight'] as const;
export const SCALE_LIMITS = [0, 240, 120, 30, 10] as const;

/** POST /api/getOmronParticipantData/{id} body (core §7). `since` is a local date. */
export const omronQuerySchema = z.object({
  queryStr: z.object({
    category: z.enum(OMRON_CATEGORIES),
    since: z
      .string()
      .regex(new RegExp(`^${DATE}$`))
      .refine(isRealDate, 'Invalid date'),
    sortOrder: z.enum(['asc', 'desc']).default('asc'),
    limit: z.coerce
      .number()
      .refine((n) => (SCALE_LIMITS as readonly number[]).includes(n), SCALE_FORM_MESSAGES.limit)
      .optional(),
  }),
});
export type OmronQuery = z.infer<typeof omronQuerySchema>['queryStr'];

export const bloodPressureReadingSchema = z.object({
  /** Local wall-clock time of the measurement, ISO without offset. */
  dateTimeLocal: z.string(),
  /** The instant, ISO with Z. */
  dateTime: z.string(),
  utcOffset: z.string(),
  systolic: z.number(),
  diastolic: z.number(),
  pulse: z.number().nullable(),
});
export const weightReadingSchema = z.object({
  dateTimeLocal: z.string(),
  dateTime: z.string(),
  utcOffset: z.string(),
  /** kg, as Omron sends it; the page shows pounds. */
  weight: z.number(),
  bmi: z.number().nullable(),
  bodyFat: z.number().nullable(),
});
export type BloodPressureReading = z.infer<typeof bloodPressureReadingSchema>;
export type WeightReading = z.infer<typeof weightReadingSchema>;

/** Answer: `bloodPressure` or `weight` (core §7), in the requested order and limit. */
export const omronDataResultSchema = z.object({
  participantId: z.number(),
  category: z.enum(OMRON_CATEGORIES),
  /** The participant's zone when the provider says it (Omron gives an offset per reading), else null. */
  timeZone: z.string().nullable(),
  bloodPressure: z.array(bloodPressureReadingSchema).optional(),
  weight: z.array(weightReadingSchema).optional(),
});
export type OmronDataResult = z.infer<typeof omronDataResultSchema>;

// ------------------------------------------------------------ Dexcom

export const DEXCOM_RESOURCES = ['egvs', 'calibrations', 'events', 'devices', 'dataRange'] as const;
/** The provider's longest window per request (providers.md §3.3); longer periods are stitched. */
export const DEXCOM_MAX_WINDOW_DAYS = 30;
/** Longest period the portal asks for at once (stitched from 30-day windows). */
export const DEXCOM_MAX_PERIOD_DAYS = 90;

/** GET /api/getDexcomParticipantData/{id}/{query}: {query} is the resource, the window is in the query string. */
export const dexcomQuerySchema = z.object({
  startDate: z
    .string()
    .regex(new RegExp(`^${DATE}T${TIME}:\\d{2}$`))
    .optional(),
  endDate: z
    .string()
    .regex(new RegExp(`^${DATE}T${TIME}:\\d{2}$`))
    .optional(),
});

export const egvSchema = z.object({
  recordId: z.string().optional(),
  systemTime: z.string(),
  displayTime: z.string(),
  value: z.number().nullable(),
  unit: z.string().optional(),
  trend: z.string().nullable().optional(),
  trendRate: z.number().nullable().optional(),
});
export type Egv = z.infer<typeof egvSchema>;

export const dexcomDataResultSchema = z.object({
  participantId: z.number(),
  resource: z.enum(DEXCOM_RESOURCES),
  timeZone: z.string().nullable(),
  /** Provider requests it took (windows of at most 30 days). */
  requests: z.number(),
  /** The provider's records, merged across windows, oldest first. */
  records: z.array(z.unknown()),
  /** For dataRange and devices: the provider's answer as is. */
  data: z.unknown().optional(),
});
export type DexcomDataResult = z.infer<typeof dexcomDataResultSchema>;

/** The clinical glucose summary (international consensus on CGM metrics). */
export const GLUCOSE_RANGES = { veryLow: 54, low: 70, high: 180, veryHigh: 250 } as const;
/** Readings a sensor makes per day (one every 5 minutes). */
export const EGVS_PER_DAY = 288;

export interface GlucoseSummary {
  readings: number;
  possibleReadings: number;
  /** Percent of possible readings present, 1 decimal. */
  coverage: number;
  mean: number | null;
  /** Glucose management indicator, % = 3.31 + 0.02392 × mean mg/dL, 1 decimal. */
  gmi: number | null;
  /** Coefficient of variation, % = SD / mean × 100, 1 decimal. */
  cv: number | null;
  /** Percent of readings in each band, 1 decimal: <54, <70 (incl. <54), 70–180, >180 (incl. >250), >250. */
  below54: number;
  below70: number;
  inRange: number;
  above180: number;
  above250: number;
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/** The standard CGM summary of the glucose values in a window of `days` days. */
export function glucoseSummary(values: readonly number[], days: number): GlucoseSummary {
  const n = values.length;
  const possibleReadings = Math.round(days * EGVS_PER_DAY);
  const pct = (k: number) => (n ? r1((k / n) * 100) : 0);
  const count = (f: (v: number) => boolean) => values.reduce((c, v) => c + (f(v) ? 1 : 0), 0);
  const mean = n ? values.reduce((s, v) => s + v, 0) / n : null;
  const sd =
    mean !== null && n > 1 ? Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1)) : null;
  return {
    readings: n,
    possibleReadings,
    coverage: possibleReadings ? r1((n / possibleReadings) * 100) : 0,
    mean: mean === null ? null : r1(mean),
    gmi: mean === null ? null : r1(3.31 + 0.02392 * mean),
    cv: mean === null || sd === null ? null : r1((sd / mean) * 100),
    below54: pct(count((v) => v < GLUCOSE_RANGES.veryLow)),
    below70: pct(count((v) => v < GLUCOSE_RANGES.low)),
    inRange: pct(count((v) => v >= GLUCOSE_RANGES.low && v <= GLUCOSE_RANGES.high)),
    above180: pct(count((v) => v > GLUCOSE_RANGES.high)),
    above250: pct(count((v) => v > GLUCOSE_RANGES.veryHigh)),
  };
}

// ------------------------------------------------------------ raw (Sys_Admin)

/**
 * GET /api/participantRaw/{participantId}/{provider}?resource=…: the
 * provider's answer exactly as received, for the raw pages. `resource` is a
 * tracker resource path (Fitbit), `bloodPressure|weight` with `since`
 * (Omron), or a Dexcom resource with `startDate`/`endDate`, validated like
 * the data calls; never a URL.
 */
export const rawQuerySchema = z.object({
  resource: z.string().min(1).max(300),
  since: z.string().optional(),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
});
export const rawDataResultSchema = z.object({
  provider: z.enum(['fitbit', 'omron', 'dexcom']),
  /** The provider path that was called (host and token left out). */
  request: z.string(),
  status: z.number(),
  receivedAt: z.string(),
  timeZone: z.string().nullable(),
  /** Rate-limit headers when the provider sent them. */
  headers: z.record(z.string(), z.string()),
  body: z.unknown(),
});
export type RawDataResult = z.infer<typeof rawDataResultSchema>;
