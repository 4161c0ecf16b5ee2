/*
 * Body answers as series: the weighings (weight, body fat of their time,
 * BMI from the latest height) as a daily series or a log of points.
 */
import type { Series, SeriesPoint } from '@trialwear/contract';
import { datesBetween, offsetMinutesAt } from '@trialwear/zone';
import { BODY_METRICS } from '../../series-kit.js';
import { type CivilDateTime, civilText, durationSeconds, num } from '../civil-time.js';
import { type Json, localOf, obj, round } from '../payloads.js';
import type { Answered, Ctx } from './answered.js';

interface Weighing {
  t: number;
  offsetSeconds: number | null;
  date: string;
  time: string;
  kg: number;
  fat: number | null;
  bmi: number | null;
  logId: number | string;
  source: string;
}

/** The local date and time of a sample (civil time; else the instant shifted by its offset). */
const sampleLocal = (payload: Json): string | null => {
  const st = obj(payload.sampleTime);
  return civilText(st.civilTime as CivilDateTime | undefined) ?? localOf(st.physicalTime, st.utcOffset);
};

/** The weighings in local time order, each with the body fat of its time (else its date) and the BMI. */
function weighings(a: Answered): Weighing[] {
  const fats = new Map<string, number>();
  const fatByDate = new Map<string, number>();
  for (const p of a.listed('body-fat')) {
    const b = obj(p.bodyFat);
    const at = sampleLocal(b);
    const pct = num(b.percentage);
    if (!at || pct === null) continue;
    if (!fats.has(at)) fats.set(at, pct);
    if (!fatByDate.has(at.slice(0, 10))) fatByDate.set(at.slice(0, 10), pct);
  }
  // BMI is not in the API: weight over the square of the latest height (§6 row 12).
  const mm = num(obj(a.listed('height')[0]?.height).heightMillimeters);
  const out: Weighing[] = [];
  for (const p of a.listed('weight')) {
    const w = obj(p.weight);
    const at = sampleLocal(w);
    const g = num(w.weightGrams);
    if (!at || g === null) continue;
    const kg = round(g / 1000, 3);
    const fat = fats.get(at) ?? fatByDate.get(at.slice(0, 10)) ?? null;
    const st = obj(w.sampleTime);
    const t = Date.parse(String(st.physicalTime));
    const name = typeof p.name === 'string' ? p.name.split('/').pop()! : '';
    const source = obj(p.dataSource);
    out.push({
      t,
      offsetSeconds: durationSeconds(st.utcOffset),
      date: at.slice(0, 10),
      time: at.slice(11, 19),
      kg,
      fat: fat === null ? null : round(fat, 3),
      bmi: mm ? round(kg / (mm / 1000) ** 2, 2) : null,
      logId: /^\d+$/.test(name) ? Number(name) : name || t,
      source:
        (obj(source.device).displayName as string | undefined) ??
        (source.recordingMethod === 'MANUAL' ? 'Web' : 'API'),
    });
  }
  return out.sort((x, y) => `${x.date}T${x.time}`.localeCompare(`${y.date}T${y.time}`));
}

/** A weighing's value of each body resource. */
const BODY_VALUE: Record<string, (w: Weighing) => number | null> = {
  weight: (w) => w.kg,
  fat: (w) => w.fat,
  bmi: (w) => w.bmi,
};

/** `/body/{weight,fat,bmi}/date/…`: every day of the range, the day's last weighing, null without one. */
export function bodySeries(c: Ctx): Series[] {
  const resource = /^\/body\/(\w+)\//.exec(c.path)![1]!;
  const { metric, unit } = BODY_METRICS[resource]!;
  const value = BODY_VALUE[resource]!;
  const last = new Map<string, Weighing>();
  for (const w of weighings(c.a)) if (w.date >= c.start && w.date <= c.end) last.set(w.date, w);
  return [
    c.series(metric, unit, {
      days: datesBetween(c.start, c.end, 4000).map((date) => {
        const w = last.get(date);
        const v = w ? value(w) : null;
        return { date, value: v === 0 ? null : v };
      }),
    }),
  ];
}

/** `/body/log/{weight,fat}/…`: a point per weighing at its instant (weight log: weight, BMI, body fat). */
export function bodyLog(c: Ctx): Series[] {
  const kind = /^\/body\/log\/(\w+)\//.exec(c.path)![1]!;
  const logs = weighings(c.a);
  const point = (w: Weighing, value: number | null): SeriesPoint => ({
    at: new Date(w.t).toISOString(),
    date: w.date,
    time: w.time,
    offsetMinutes: w.offsetSeconds === null ? offsetMinutesAt(c.zone, w.t) : Math.round(w.offsetSeconds / 60),
    value,
    detail: { logId: w.logId, source: w.source },
  });
  const metrics = kind === 'fat' ? ['fat'] : ['weight', 'bmi', 'fat'];
  return metrics.map((k) => {
    const { metric, unit } = BODY_METRICS[k]!;
    const value = BODY_VALUE[k]!;
    return c.series(metric, unit, {
      points: logs.filter((w) => value(w) !== null).map((w) => point(w, value(w))),
    });
  });
}
