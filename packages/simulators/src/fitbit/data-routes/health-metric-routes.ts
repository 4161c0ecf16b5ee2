/*
 * The daily health metrics (providers.md §1.7.8–§1.7.10): SpO2, cardio
 * fitness score, HRV and breathing rate of the main sleep, and the nightly
 * skin temperature relative to the baseline.
 */
import type { FastifyInstance } from 'fastify';
import { fitbitDay } from '../fitbit-daily.js';
import { dayOrDays, daysOf, type FitbitRouteKit, parseDate } from './route-kit.js';

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

  // Cardio fitness score (max 30 days).
  app.get(
    '/1/user/-/cardioscore/date/*',
    handle('cardio_fitness', (grant, parts) => {
      const days = dayOrDays(parts[0]!, parts[1], today(grant.userId), 30);
      return {
        cardioScore: days.flatMap((day) => {
          const v = fitbitDay(grant.userId, day).vo2Max;
          return v ? [{ dateTime: day, value: { vo2Max: v } }] : [];
        }),
      };
    }),
  );

  // HRV and breathing rate of the main sleep (max 30 days; providers.md §1.7.10).
  app.get(
    '/1/user/-/hrv/date/*',
    handle('heartrate', (grant, parts) => {
      const days = dayOrDays(parts[0]!, parts[1], today(grant.userId), 30);
      return {
        hrv: days.flatMap((day) => {
          const v = fitbitDay(grant.userId, day).hrv;
          return v ? [{ dateTime: day, value: v }] : [];
        }),
      };
    }),
  );
  app.get(
    '/1/user/-/br/date/*',
    handle('respiratory_rate', (grant, parts) => {
      const days = dayOrDays(parts[0]!, parts[1], today(grant.userId), 30);
      return {
        br: days.flatMap((day) => {
          const v = fitbitDay(grant.userId, day).breathingRate;
          return v === null ? [] : [{ dateTime: day, value: { breathingRate: v } }];
        }),
      };
    }),
  );
  // Nightly skin temperature relative to the baseline, °C (scope temperature; max 30 days).
  app.get(
    '/1/user/-/temp/skin/date/*',
    handle('temperature', (grant, parts) => {
      const days = dayOrDays(parts[0]!, parts[1], today(grant.userId), 30);
      return {
        tempSkin: days.flatMap((day) => {
          const v = fitbitDay(grant.userId, day).skinTempRelative;
          return v === null
            ? []
            : [{ dateTime: day, value: { nightlyRelative: v }, logType: 'dedicated_temp_sensor' }];
        }),
      };
    }),
  );
}
