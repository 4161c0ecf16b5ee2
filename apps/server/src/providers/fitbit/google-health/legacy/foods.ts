/*
 * The legacy food series (calories in, water) from the nutrition and
 * hydration logs' civil-day roll-ups.
 */

import type { FitbitResource } from '@trialwear/contract';
import { datesBetween } from '@trialwear/zone';
import { num } from '../civil-time.js';
import type { GoogleHealthCalls } from '../google-http.js';
import { dailyValues, obj } from './google-payloads.js';

export async function foodsSeries(calls: GoogleHealthCalls, kind: 'caloriesIn' | 'water', r: FitbitResource) {
  const values =
    kind === 'caloriesIn'
      ? await dailyValues(calls, 'nutrition-log', r.start!, r.end!, (p) => num(obj(p.energy).kcalSum))
      : await dailyValues(calls, 'hydration-log', r.start!, r.end!, (p) =>
          num(obj(p.amountConsumed).millilitersSum),
        );
  return {
    [`foods-log-${kind}`]: datesBetween(r.start!, r.end!, 4000).map((d) => ({
      dateTime: d,
      value: String(Math.round(values.get(d) ?? 0)),
    })),
  };
}
