/*
 * Sleep answers as series: each sleep at its start, dated by the day it
 * ended, its minutes asleep and its stage minutes.
 */
import type { Series, SeriesPoint } from '@trialwear/contract';
import { offsetMinutesAt } from '@trialwear/zone';
import { type CivilDateTime, civilText, durationSeconds, num } from '../civil-time.js';
import { type Json, list, localOf, obj } from '../payloads.js';
import type { Ctx } from './answered.js';

const MAIN_STAGES = ['deep', 'light', 'rem', 'wake'] as const;

interface Sleep {
  t: number;
  start: string;
  end: string;
  offsetSeconds: number | null;
  dateOfSleep: string;
  logId: number | string;
  isMainSleep: boolean;
  duration: number;
  minutesAsleep: number;
  stages: Record<string, number>;
  /** The stages as the legacy `levels.data` lists them: local start, level, seconds. */
  intervals: Array<{ dateTime: string; level: string; seconds: number }>;
  classic: boolean;
}

function sleepOf(p: Json): Sleep | null {
  const s = obj(p.sleep);
  const i = obj(s.interval);
  const end = civilText(i.civilEndTime as CivilDateTime | undefined) ?? localOf(i.endTime, i.endUtcOffset);
  const start =
    civilText(i.civilStartTime as CivilDateTime | undefined) ?? localOf(i.startTime, i.startUtcOffset);
  if (!start || !end) return null;
  const classic = s.type === 'CLASSIC';
  const summary = obj(s.summary);
  const level = (t: unknown) => (t === 'AWAKE' ? (classic ? 'awake' : 'wake') : String(t).toLowerCase());
  const name = typeof p.name === 'string' ? p.name.split('/').pop()! : '';
  const started = Date.parse(String(i.startTime));
  return {
    t: started,
    start,
    end,
    offsetSeconds: durationSeconds(i.startUtcOffset),
    dateOfSleep: end.slice(0, 10),
    logId: /^\d+$/.test(name) ? Number(name) : name || started,
    isMainSleep: obj(s.metadata).mainSleep === true,
    duration: Date.parse(String(i.endTime)) - started,
    minutesAsleep: num(summary.minutesAsleep) ?? 0,
    stages: Object.fromEntries(list(summary.stagesSummary).map((x) => [level(x.type), num(x.minutes) ?? 0])),
    intervals: list(s.stages).flatMap((x) => {
      const local = localOf(x.startTime, x.startUtcOffset);
      const seconds = (Date.parse(String(x.endTime)) - Date.parse(String(x.startTime))) / 1000;
      return local && Number.isFinite(seconds)
        ? [{ dateTime: `${local}.000`, level: level(x.type), seconds }]
        : [];
    }),
    classic,
  };
}

/**
 * `/sleep/date/{s}/{e}`: one point per sleep at its start, dated by the day
 * it ended (legacy dateOfSleep): `sleep_duration` (minutes asleep) and
 * `sleep_stages` (the stage minutes and the stage intervals in `detail`).
 */
export function sleepRange(c: Ctx): Series[] {
  const points = c.a.listed('sleep');
  const sleeps = points
    .map(sleepOf)
    .filter((s): s is Sleep => s !== null && s.dateOfSleep >= c.start && s.dateOfSleep <= c.end);
  // No main-sleep flag (an early API version): the longest sleep of each date is the main one (§3.10).
  if (!points.some((p) => typeof obj(obj(p.sleep).metadata).mainSleep === 'boolean'))
    for (const date of new Set(sleeps.map((s) => s.dateOfSleep)))
      sleeps
        .filter((s) => s.dateOfSleep === date)
        .sort((x, y) => y.duration - x.duration)[0]!.isMainSleep = true;
  sleeps.sort((x, y) => x.start.localeCompare(y.start));
  const at = (s: Sleep, value: number | null, detail: Json): SeriesPoint => ({
    at: new Date(s.t).toISOString(),
    date: s.dateOfSleep,
    time: s.start.slice(11, 19),
    offsetMinutes: s.offsetSeconds === null ? offsetMinutesAt(c.zone, s.t) : Math.round(s.offsetSeconds / 60),
    value,
    detail,
  });
  const base = (s: Sleep) => ({
    logId: s.logId,
    isMainSleep: s.isMainSleep,
    startTime: `${s.start}.000`,
    endTime: `${s.end}.000`,
  });
  return [
    c.series('sleep_duration', 'min', { points: sleeps.map((s) => at(s, s.minutesAsleep, base(s))) }),
    c.series('sleep_stages', 'min', {
      points: sleeps.map((s) =>
        at(s, null, {
          ...base(s),
          ...Object.fromEntries(MAIN_STAGES.map((k) => [k, s.stages[k] ?? null])),
          intervals: s.intervals,
        }),
      ),
    }),
  ];
}
