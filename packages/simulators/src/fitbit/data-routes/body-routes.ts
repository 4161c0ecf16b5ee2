/*
 * Body (providers.md §1.7.7): weight and fat logs (max 31 and 30 days)
 * and the weight, fat and BMI time series ({start}/{end}, max 31/30/1095
 * days, or {date}/{period} for any documented period up to 1y and max), from
 * the daily Aria weighing at 07:38:14 — the same generator, so a series and
 * the logs agree per local date. A day without a weighing is "0" in a series.
 */
import type { FastifyInstance } from 'fastify';
import { fitbitDay } from '../fitbit-daily.js';
import { dayOrDays, daysOf, err, type FitbitRouteKit, RangeError400 } from './route-kit.js';

export function registerBodyRoutes(app: FastifyInstance, { today, handle }: FitbitRouteKit) {
  // Body: weight logs (max 31 days) and time series.
  app.get(
    '/1/user/-/body/*',
    handle('weight', (grant, parts) => {
      if (parts[0] === 'log' && parts[1] === 'fat' && parts[2] === 'date') {
        const days = dayOrDays(parts[3]!, parts[4], today(grant.userId), 30);
        return {
          fat: days.flatMap((day) => {
            const d = fitbitDay(grant.userId, day);
            return d.fatPct === null
              ? []
              : [
                  {
                    date: day,
                    fat: d.fatPct,
                    logId: Date.parse(`${day}T07:38:14Z`),
                    source: 'Aria',
                    time: '07:38:14',
                  },
                ];
          }),
        };
      }
      if (parts[0] === 'log' && parts[1] === 'weight' && parts[2] === 'date') {
        const days = dayOrDays(parts[3]!, parts[4], today(grant.userId), 31);
        return {
          weight: days.flatMap((day) => {
            const d = fitbitDay(grant.userId, day);
            return d.weightKg === null
              ? []
              : [
                  {
                    bmi: Math.round((d.weightKg / 1.72 ** 2) * 100) / 100,
                    date: day,
                    fat: d.fatPct,
                    logId: Date.parse(`${day}T07:38:14Z`),
                    source: 'Aria',
                    time: '07:38:14',
                    weight: d.weightKg,
                  },
                ];
          }),
        };
      }
      const [resource, dateWord, a, b] = parts;
      if (
        (resource !== 'weight' && resource !== 'fat' && resource !== 'bmi') ||
        dateWord !== 'date' ||
        !a ||
        !b
      ) {
        throw new RangeError400(
          err('validation', `Invalid time series resource path: /body/${parts.join('/')}`),
        );
      }
      // The range form: bmi 1095 days, fat 30, weight 31; the period form: any documented period
      // (1d … 1y, max), one call (Fitbit's "Get Body Time Series by Date").
      const max = resource === 'bmi' ? 1095 : resource === 'fat' ? 30 : 31;
      return {
        [`body-${resource}`]: daysOf(a, b, today(grant.userId), max, 1095).map((day) => {
          const d = fitbitDay(grant.userId, day);
          const kg = d.weightKg ?? 0;
          const value =
            resource === 'weight'
              ? kg
              : resource === 'fat'
                ? (d.fatPct ?? 0)
                : Math.round((kg / 1.72 ** 2) * 100) / 100;
          return { dateTime: day, value: String(value) };
        }),
      };
    }),
  );
}
