/*
 * What both Fitbit APIs' mappings to the normalized series share (decision
 * 030): the metric key and unit of each activity resource, how a local date
 * and time in the participant's zone becomes a point, and the cardio score's
 * number. The legacy Web API (legacy-series.ts) and the Google Health API
 * (google-health/) each map their own answers with these, so a link answers
 * the same series whichever API it was authorized with.
 */
import type { LinkProvider, Series, SeriesDay, SeriesPoint } from '@trialwear/contract';
import { instantOfLocal, instantsOfLocalTimes, offsetMinutesAt } from '@trialwear/zone';

/** Fitbit activity resource (path segment) → metric key and unit (legacy metric units). */
export const ACTIVITY_METRICS: Record<string, { metric: string; unit: string }> = {
  steps: { metric: 'steps', unit: 'steps' },
  distance: { metric: 'distance', unit: 'km' },
  floors: { metric: 'floors', unit: 'floors' },
  elevation: { metric: 'elevation', unit: 'm' },
  calories: { metric: 'calories', unit: 'kcal' },
  caloriesBMR: { metric: 'calories_bmr', unit: 'kcal' },
  activityCalories: { metric: 'activity_calories', unit: 'kcal' },
  minutesSedentary: { metric: 'minutes_sedentary', unit: 'min' },
  minutesLightlyActive: { metric: 'minutes_lightly_active', unit: 'min' },
  minutesFairlyActive: { metric: 'minutes_fairly_active', unit: 'min' },
  minutesVeryActive: { metric: 'minutes_very_active', unit: 'min' },
};

/** Body resource (path segment) → metric key and unit. */
export const BODY_METRICS: Record<string, { metric: string; unit: string }> = {
  weight: { metric: 'weight', unit: 'kg' },
  fat: { metric: 'body_fat', unit: '%' },
  bmi: { metric: 'bmi', unit: 'kg/m²' },
};

/** Food log resource → metric key and unit (metric answers: millilitres of water). */
export const FOOD_METRICS: Record<string, { metric: string; unit: string }> = {
  caloriesIn: { metric: 'calories_in', unit: 'kcal' },
  water: { metric: 'water', unit: 'ml' },
};

/** Number of a provider value given as a number or a numeric string; null otherwise. */
export const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/**
 * Fitbit's cardio score is a range string ("44-48") without GPS runs and a
 * single number (or number string) with them (providers.md §1.7.9): the
 * number, or the middle of the range.
 */
export function vo2MaxValue(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:-\s*(\d+(?:\.\d+)?)\s*)?$/.exec(v);
  if (!m) return null;
  return m[2] === undefined ? Number(m[1]) : (Number(m[1]) + Number(m[2])) / 2;
}

/** A point at a local date and wall-clock time (HH:mm:ss) in the zone; `date` may be given apart (a sleep's date). */
export function localPoint(
  tz: string,
  localDateTime: { date: string; time: string },
  value: number | null,
  more: { date?: string; text?: string; detail?: Record<string, unknown> } = {},
): SeriesPoint {
  const t = instantOfLocal(tz, `${localDateTime.date}T${localDateTime.time}`);
  return pointAt(t, tz, localDateTime.time, value, { ...more, date: more.date ?? localDateTime.date });
}

/** Points of one local date's dataset (`times` HH:mm:ss, in order), the zone asked once for a day without a change. */
export function dayPoints(
  tz: string,
  date: string,
  entries: ReadonlyArray<{ time: string; value: number | null }>,
): SeriesPoint[] {
  const instants = instantsOfLocalTimes(
    tz,
    date,
    entries.map((e) => e.time),
  );
  return entries.map((e, i) => pointAt(instants[i]!, tz, e.time, e.value, { date }));
}

function pointAt(
  t: number,
  tz: string,
  time: string,
  value: number | null,
  more: { date: string; text?: string; detail?: Record<string, unknown> },
): SeriesPoint {
  return {
    at: new Date(t).toISOString(),
    date: more.date,
    time,
    offsetMinutes: offsetMinutesAt(tz, t),
    value,
    ...(more.text === undefined ? {} : { text: more.text }),
    ...(more.detail === undefined ? {} : { detail: more.detail }),
  };
}

/** A series of daily values or of points, with its provenance. */
export function series(
  metric: string,
  unit: string,
  tz: string,
  values: { days: SeriesDay[] } | { points: SeriesPoint[] },
  source: { provider: LinkProvider; request: string },
): Series {
  return {
    metric,
    unit,
    timeZone: tz,
    ...values,
    source: { provider: source.provider, requests: source.request ? source.request.split(' ; ') : [] },
  };
}

/** "HH:mm:ss" of a wall-clock text ("08:15", "08:15:00", "2026-11-20T23:10:00.000"), or null. */
export function clockOf(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const m = /(?:^|T)(\d{2}):(\d{2})(?::(\d{2}))?/.exec(text);
  return m ? `${m[1]}:${m[2]}:${m[3] ?? '00'}` : null;
}
