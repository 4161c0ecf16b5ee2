/*
 * The daily health metrics (providers.md §1.7.8–§1.7.10): SpO2, cardio
 * fitness score, HRV and breathing rate of the main sleep, and the nightly
 * skin temperature relative to the baseline.
 */
import { instantOfLocal, wallClockMs } from '@trialwear/zone';
import type { FastifyInstance } from 'fastify';
import { fitbitDay } from '../fitbit-daily.js';
import { fitbitUserTimezone } from '../fitbit-data.js';
import { fitbitHrvIntraday } from '../fitbit-hrv-intraday.js';
import { dayOrDays, daysOf, type FitbitRouteKit, parseDate } from './route-kit.js';

type FitbitDay = ReturnType<typeof fitbitDay>;

/** The metrics answered as `{ [key]: [{ dateTime, ...entry }] }` for the days that have one. */
const DAILY_METRICS: Array<{
  path: string;
  scope: string;
  key: string;
  entry: (d: FitbitDay) => { value: unknown; logType?: string } | null;
}> = [
  {
    path: 'cardioscore',
    scope: 'cardio_fitness',
    key: 'cardioScore',
    entry: (d) => (d.vo2Max ? { value: { vo2Max: d.vo2Max } } : null),
  },
  { path: 'hrv', scope: 'heartrate', key: 'hrv', entry: (d) => (d.hrv ? { value: d.hrv } : null) },
  {
    path: 'br',
    scope: 'respiratory_rate',
    key: 'br',
    entry: (d) => (d.breathingRate === null ? null : { value: { breathingRate: d.breathingRate } }),
  },
  // Nightly skin temperature relative to the baseline, °C.
  {
    path: 'temp/skin',
    scope: 'temperature',
    key: 'tempSkin',
    entry: (d) =>
      d.skinTempRelative === null
        ? null
        : { value: { nightlyRelative: d.skinTempRelative }, logType: 'dedicated_temp_sensor' },
  },
];

/**
 * HRV intraday (`/hrv/date/{date}[/{end}]/all.json`, max 30 days): each
 * night's 5-minute samples at their local wall clock, under its wake-up date.
 */
function hrvIntraday(userId: string, parts: string[], today: string) {
  const { tz } = fitbitUserTimezone(userId);
  const days = dayOrDays(parts[0]!, parts.length === 3 ? parts[1] : undefined, today, 30);
  return {
    hrv: days.flatMap((day) => {
      const s = fitbitDay(userId, day).sleep;
      const minutes = s ? fitbitHrvIntraday(userId, day, instantOfLocal(tz, s.start.slice(0, 19))) : [];
      if (minutes.length === 0) return [];
      return [
        {
          minutes: minutes.map(({ at, ...value }) => ({ minute: wallClockMs(tz, at), value })),
          dateTime: day,
        },
      ];
    }),
  };
}

export function registerHealthMetricRoutes(app: FastifyInstance, { today, handle }: FitbitRouteKit) {
  // SpO2: one date → an object; a range → an array.
  app.get(
    '/1/user/-/spo2/date/*',
    handle('oxygen_saturation', (grant, parts) => {
      const entry = (day: string) => {
        const o = fitbitDay(grant.userId, day).spo2;
        return o ? { dateTime: day, value: o } : null;
      };
      if (!parts[1]) return entry(parseDate(parts[0]!, today(grant.userId), 'date')) ?? {};
      return daysOf(parts[0]!, parts[1], today(grant.userId), 1095).flatMap((day) => entry(day) ?? []);
    }),
  );

  // Cardio score, HRV and breathing rate of the main sleep, skin temperature (max 30 days; providers.md §1.7.9, §1.7.10).
  for (const m of DAILY_METRICS)
    app.get(
      `/1/user/-/${m.path}/date/*`,
      handle(m.scope, (grant, parts) =>
        m.key === 'hrv' && parts.at(-1) === 'all' && parts.length <= 3
          ? hrvIntraday(grant.userId, parts, today(grant.userId))
          : {
              [m.key]: dayOrDays(parts[0]!, parts[1], today(grant.userId), 30).flatMap((day) => {
                const e = m.entry(fitbitDay(grant.userId, day));
                return e ? [{ dateTime: day, ...e }] : [];
              }),
            },
      ),
    );
}
