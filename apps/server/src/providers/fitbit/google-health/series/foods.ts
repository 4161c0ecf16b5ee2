/*
 * Food answers as series: calories in and water, the day's total per day.
 */
import type { Series } from '@trialwear/contract';
import { datesBetween } from '@trialwear/zone';
import { FOOD_METRICS } from '../../series-kit.js';
import { num } from '../civil-time.js';
import { obj } from '../payloads.js';
import { type Ctx, dailySums, plain } from './answered.js';

/** `/foods/log/{caloriesIn,water}/…`: every day, the day's total rounded, 0 without a log. */
export function foodsSeries(c: Ctx): Series[] {
  const resource = /^\/foods\/log\/(\w+)\//.exec(c.path)![1]!;
  const { metric, unit } = FOOD_METRICS[resource]!;
  const water = resource === 'water';
  const values = water
    ? dailySums(c.a, 'hydration-log', (p) => num(obj(p.amountConsumed).millilitersSum))
    : dailySums(c.a, 'nutrition-log', (p) => num(obj(p.energy).kcalSum));
  return [
    c.series(metric, unit, {
      days: datesBetween(c.start, c.end, 4000).map((date) => ({
        date,
        value: plain(Math.round(values.get(date) ?? 0)),
      })),
    }),
  ];
}
