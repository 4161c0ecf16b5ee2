/*
 * The shapes a point takes, one builder per shape, so that each data type
 * only says what its values are: a minute of an intraday type, an interval
 * that counts for a level, a sample, a daily value, a session.
 */
import { instantOfLocal } from '@trialwear/zone';
import type { DayCtx, Pt, Source } from './spec.js';

/** The instant of a local wall-clock time (`HH:MM:SS`) of the day. */
export const atLocal = (c: DayCtx, time: string) => instantOfLocal(c.tz, `${c.date}T${time}`);

/** One minute from `t` (steps, distance, floors, calories, active zone minutes). */
export const minutePoint = (
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

/** An interval whose time counts for `level` (duration-valued types: roll-ups cut it by the window). */
export const levelInterval = (
  c: DayCtx,
  x: { start: number; end: number },
  fields: Record<string, unknown>,
  level: string,
): Pt => ({ t: x.start, end: x.end, tz: c.tz, date: c.date, source: 'tracker', fields, level });

/** A measurement at one instant. */
export const samplePoint = (
  c: DayCtx,
  t: number,
  fields: Record<string, unknown>,
  n: number,
  source: Source = 'tracker',
  tz = c.tz,
): Pt => ({ t, tz, date: c.date, source, fields, n });

/** The day's value, at its local midnight. */
export const dailyPoint = (c: DayCtx, fields: Record<string, unknown>, n?: number): Pt[] => [
  {
    t: atLocal(c, '00:00'),
    tz: c.tz,
    date: c.date,
    source: 'tracker',
    fields,
    ...(n !== undefined && { n }),
  },
];

/** An identifiable session (sleep, exercise, a log entry). */
export const sessionPoint = (
  c: DayCtx,
  x: { start: number; end: number; id: string; tz?: string },
  fields: Record<string, unknown>,
  n?: number,
): Pt => ({
  t: x.start,
  end: x.end,
  tz: x.tz ?? c.tz,
  date: c.date,
  source: 'tracker',
  id: x.id,
  fields,
  ...(n !== undefined && { n }),
});

/**
 * A legacy log entry of the day (food, water) logged at `time`, lasting
 * `minutes`: its id is the legacy log's (the time read as UTC, in ms).
 */
export const logEntry = (
  c: DayCtx,
  time: string,
  minutes: number,
  fields: Record<string, unknown>,
  n: number,
): Pt[] => {
  const start = atLocal(c, time);
  const id = String(Date.parse(`${c.date}T${time}Z`));
  return [sessionPoint(c, { start, end: start + minutes * 60_000, id }, fields, n)];
};
