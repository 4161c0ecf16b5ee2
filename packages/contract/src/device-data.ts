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
import {
  DATA_MESSAGES,
  isRealDate,
  parseFitbitTrackerPath,
  SCALE_FORM_MESSAGES,
  SUMMARY_SUBJECTS,
} from './device-data-rules.js';
import { seriesSchema } from './series.js';

export * from './device-data-rules.js';

const DATE = String.raw`\d{4}-\d{2}-\d{2}`;
const TIME = String.raw`\d{2}:\d{2}`;

export const fitbitResourcePathSchema = z
  .string()
  .refine((p) => parseFitbitTrackerPath(p) !== null, { message: DATA_MESSAGES.unknownResource });

// ------------------------------------------------------------ answers

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

/**
 * GET /api/getFitbitServerParticipantData/{participantId}/{email}/{resourcePath}
 * (resourcePath URL-encoded as one segment). `timeZone` is the participant's
 * IANA zone (Fitbit profile, Google Health settings): every local date and
 * time in the answer is in it. Exactly one of:
 * - `series`: what the path reads as normalized series (series.ts), one per
 *   metric, whichever API the link was authorized with;
 * - `overview`: for `/overview`, 14 local days per subject and their summary;
 * - `records`: for the paths that list logs rather than values (the activity
 *   log list, a day's food log), the provider's entries as listed.
 */
export const trackerSeriesResultSchema = z.object({
  participantId: z.number(),
  resourcePath: z.string(),
  timeZone: z.string(),
  series: z.array(seriesSchema).optional(),
  overview: trackerOverviewSchema.optional(),
  records: z.array(z.unknown()).optional(),
});
export type TrackerSeriesResult = z.infer<typeof trackerSeriesResultSchema>;

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
  /** For egvs, calibrations and events: the records as normalized series (`egv`, `calibrations`, `events`). */
  series: z.array(seriesSchema).optional(),
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
