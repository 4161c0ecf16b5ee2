/*
 * Food logs (providers.md §1.7.11): the caloriesIn and water series (max
 * 1095 days) and the food log of a day (one "Daily meals" entry).
 */
import type { FastifyInstance } from 'fastify';
import { fitbitDay } from '../fitbit-daily.js';
import { daysOf, err, type FitbitRouteKit, parseDate, RangeError400 } from './route-kit.js';

export function registerFoodRoutes(app: FastifyInstance, { today, handle }: FitbitRouteKit) {
  // Food log series (caloriesIn, water; max 1095 days) and the food log of a day.
  app.get(
    '/1/user/-/foods/log/*',
    handle('nutrition', (grant, parts) => {
      if (
        (parts[0] === 'caloriesIn' || parts[0] === 'water') &&
        parts[1] === 'date' &&
        parts[2] &&
        parts[3]
      ) {
        const key = parts[0];
        return {
          [`foods-log-${key}`]: daysOf(parts[2], parts[3], today(grant.userId), 1095).map((day) => {
            const d = fitbitDay(grant.userId, day);
            return { dateTime: day, value: String(key === 'water' ? d.waterMl : d.caloriesIn) };
          }),
        };
      }
      if (parts[0] !== 'date' || !parts[1] || parts[2])
        throw new RangeError400(err('validation', `Invalid food log resource path: /${parts.join('/')}`));
      const day = parseDate(parts[1], today(grant.userId), 'date');
      const d = fitbitDay(grant.userId, day);
      const foods = d.caloriesIn
        ? [
            {
              isFavorite: false,
              logDate: day,
              logId: Date.parse(`${day}T08:00:00Z`),
              loggedFood: {
                amount: 1,
                calories: d.caloriesIn,
                mealTypeId: 7,
                name: 'Daily meals',
                unit: { id: 304, name: 'serving', plural: 'servings' },
              },
              nutritionalValues: { calories: d.caloriesIn },
            },
          ]
        : [];
      return { foods, goals: { calories: 2100 }, summary: { calories: d.caloriesIn, water: d.waterMl } };
    }),
  );
}
