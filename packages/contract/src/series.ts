/*
 * The normalized series (issue #22 §4): the one shape in which every
 * provider module answers — Fitbit's legacy Web API, the Google Health API,
 * Omron and Dexcom — and which the data routes, the overview, the sync and
 * the web read. No consumer outside a provider's module parses a provider's
 * own JSON.
 *
 * A series is one metric (a key of the metric catalog, or one of the
 * page-only keys below) in the unit the portal keeps it in (the provider's
 * metric unit: km, kg, mmHg, mg/dL; pages convert at display). It holds
 * either daily values per participant-local date (`days`: a daily total, a
 * resting heart rate, a night's SpO2) or timed points (`points`: a minute of
 * heart rate, a weighing, a blood-pressure reading, a glucose value, a
 * sleep), each with its UTC instant, the participant's local date and time
 * and the UTC offset in force then.
 *
 * `value` null: the provider listed the day or instant without a number.
 * A day the provider does not list at all is absent. A provider's "0" stays
 * 0 (what 0 means for a metric is the reader's rule, e.g. the overview's
 * "not worn"). `text` keeps a value the provider gives as text (Fitbit's
 * cardio score range "44-48", whose `value` is its middle); `detail` keeps
 * the provider's further fields a consumer needs (a sleep's end time and
 * stages, SpO2's min and max, a weighing's log id).
 */
import { z } from 'zod';
import { LINK_PROVIDERS } from './devices.js';

/**
 * Metric keys a data page can show that the catalog does not store (the
 * catalog's keys are the rest: steps, distance, …, egv). Listed so that a
 * series' `metric` is always a known key.
 */
export const PAGE_ONLY_METRICS = [
  'elevation',
  'calories_bmr',
  'activity_calories',
  'calories_in',
  'water',
  'heart_rate_zones',
] as const;

export const seriesDaySchema = z.object({
  /** Participant-local date, YYYY-MM-DD. */
  date: z.string(),
  value: z.number().nullable(),
  text: z.string().optional(),
  detail: z.record(z.string(), z.unknown()).optional(),
});
export type SeriesDay = z.infer<typeof seriesDaySchema>;

export const seriesPointSchema = z.object({
  /** The UTC instant, ISO 8601 with Z. */
  at: z.string(),
  /** Participant-local date and wall-clock time (HH:mm:ss) at that instant. */
  date: z.string(),
  time: z.string(),
  /** Minutes east of UTC in force at that instant (local = UTC + offset). */
  offsetMinutes: z.number().int(),
  value: z.number().nullable(),
  text: z.string().optional(),
  detail: z.record(z.string(), z.unknown()).optional(),
});
export type SeriesPoint = z.infer<typeof seriesPointSchema>;

export const seriesSchema = z.object({
  metric: z.string(),
  unit: z.string(),
  /** The IANA zone the local dates and times are in; null when the provider gives offsets only (Omron, Dexcom). */
  timeZone: z.string().nullable(),
  /** Daily values, oldest first (one per local date). */
  days: z.array(seriesDaySchema).optional(),
  /** Timed values, oldest first. */
  points: z.array(seriesPointSchema).optional(),
  /** Where it came from: the link's API and the provider paths read (no host, no token). */
  source: z.object({
    provider: z.enum(LINK_PROVIDERS),
    requests: z.array(z.string()),
    /** Read from the portal's store, not the provider (issue #24): when its values were fetched. */
    stored: z.object({ syncedAt: z.string() }).optional(),
  }),
});
export type Series = z.infer<typeof seriesSchema>;

/** The series of `metric` among `series`, or undefined. */
export const seriesOf = (series: readonly Series[], metric: string): Series | undefined =>
  series.find((s) => s.metric === metric);

/**
 * Several answers' series as one per metric, in order of first appearance:
 * days by date and points by instant, a later answer's entry replacing an
 * earlier one's for the same date or instant (a window that overlaps the
 * previous one answers its days again), requests concatenated.
 */
export function joinSeries(answers: readonly (readonly Series[])[]): Series[] {
  const out = new Map<string, Series>();
  for (const list of answers)
    for (const s of list) {
      const prev = out.get(s.metric);
      if (!prev) {
        out.set(s.metric, { ...s, source: { ...s.source, requests: [...s.source.requests] } });
        continue;
      }
      if (s.days) prev.days = mergeBy(prev.days ?? [], s.days, (d) => d.date).sort(byKey((d) => d.date));
      if (s.points) prev.points = mergeBy(prev.points ?? [], s.points, pointKey).sort(byKey((p) => p.at));
      prev.source.requests.push(...s.source.requests);
    }
  return [...out.values()];
}

/**
 * A point's identity: its instant, or the provider's log or record id where
 * it has one (a sleep, a weighing; a Dexcom record: two events may share a
 * second).
 */
const pointKey = (p: SeriesPoint) => {
  const id = p.detail?.logId ?? p.detail?.recordId;
  return id === undefined || id === null ? p.at : `log:${String(id)}`;
};

const byKey =
  <T>(key: (x: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

function mergeBy<T>(a: readonly T[], b: readonly T[], key: (x: T) => string): T[] {
  const m = new Map<string, T>();
  for (const x of a) m.set(key(x), x);
  for (const x of b) m.set(key(x), x);
  return [...m.values()];
}
