/*
 * Heart answers as series: resting heart rate per day and a day's heart
 * rate (Google's samples at their own instants, else the windows' averages).
 */
import type { Series, SeriesPoint } from '@trialwear/contract';
import { datesBetween } from '@trialwear/zone';
import { type CivilDateTime, civilText, num } from '../civil-time.js';
import { DAILY_TYPE } from '../google-reads.js';
import { obj } from '../payloads.js';
import { type Answered, type Ctx, dailyPayloads, pointAt, timeWindow, windowsByTime } from './answered.js';

/** Resting heart rate per civil date. */
function restingHeartRates(a: Answered, start: string, end: string) {
  const out = new Map<string, number>();
  for (const [d, p] of dailyPayloads(a, DAILY_TYPE['heart-series']!, start, end)) {
    const v = num(p.beatsPerMinute);
    if (v !== null) out.set(d, v);
  }
  return out;
}

export function heartSeries(c: Ctx): Series[] {
  const rhr = restingHeartRates(c.a, c.start, c.end);
  return [
    c.series('resting_heart_rate', 'bpm', {
      days: datesBetween(c.start, c.end, 4000).map((date) => ({ date, value: rhr.get(date) ?? null })),
    }),
  ];
}

/** A day's heart rate: 1sec from the samples (each at its own instant), else the windows' averages. */
export function heartIntraday(c: Ctx): Series[] {
  let points: SeriesPoint[];
  if (c.a.has('list', 'heart-rate')) {
    points = c.a
      .listed('heart-rate')
      .map((p) => {
        const h = obj(p.heartRate);
        const st = obj(h.sampleTime);
        const t = Date.parse(String(st.physicalTime));
        return {
          t,
          civil: civilText(st.civilTime as CivilDateTime | undefined),
          value: num(h.beatsPerMinute),
        };
      })
      .filter(
        (x): x is { t: number; civil: string | null; value: number } =>
          x.value !== null && Number.isFinite(x.t),
      )
      .sort((x, y) => x.t - y.t)
      .map(({ t, civil, value }) => {
        const p = pointAt(c.zone, t, value);
        return civil ? { ...p, time: civil.slice(11, 19) } : p;
      });
    const inWindow = timeWindow(c.path);
    if (inWindow) points = points.filter((p) => inWindow(p.time));
  } else {
    points = windowsByTime(c, 'heart-rate', (p) => num(p.beatsPerMinuteAvg), false).map(([, e]) =>
      pointAt(c.zone, e.t, Math.round(e.values.reduce((x, y) => x + y, 0) / e.values.length)),
    );
  }
  return [c.series('heart_rate_intraday', 'bpm', { points })];
}

/** The nights' 5-minute heart-rate variability (RMSSD) at their own instants, with Google's SDNN kept. */
export function hrvIntraday(c: Ctx): Series[] {
  const points = c.a
    .listed('heart-rate-variability')
    .map((p) => {
      const h = obj(p.heartRateVariability);
      const st = obj(h.sampleTime);
      return {
        t: Date.parse(String(st.physicalTime)),
        civil: civilText(st.civilTime as CivilDateTime | undefined),
        value: num(h.rootMeanSquareOfSuccessiveDifferencesMilliseconds),
        sdnn: num(h.standardDeviationMilliseconds),
      };
    })
    .filter((x) => x.value !== null && Number.isFinite(x.t))
    .sort((x, y) => x.t - y.t)
    .map(({ t, civil, value, sdnn }) => {
      const p = pointAt(c.zone, t, value, { detail: { sdnn } });
      return civil ? { ...p, time: civil.slice(11, 19) } : p;
    });
  return [c.series('hrv_intraday', 'ms', { points })];
}
