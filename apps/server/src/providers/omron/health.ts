/*
 * Omron's study-health measure (issue #23 item 1): blood-pressure readings
 * per participant-local day (each reading's own local date), the last 3
 * complete local days and today, from one read. Omron's device list has no
 * sync time of its own (it is derived from the readings), so a day without a
 * reading is 0, never "no data".
 */
import { seriesOf } from '@trialwear/contract';
import { addDays, utcDate } from '@trialwear/zone';
import { offsetDays } from '../offset-days.js';
import { HEALTH_COMPLETE_DAYS, type ProviderHealth } from '../sync-types.js';
import { omronSince } from './readings.js';

export const omronHealth: ProviderHealth = {
  lastSyncAt: () => null,
  async days(io) {
    const first = addDays(utcDate(io.now), -(HEALTH_COMPLETE_DAYS + 1));
    const query = {
      resource: 'measurement',
      params: { since: omronSince(first), type: 'bloodpressure', sortOrder: 'asc' },
    };
    const points = seriesOf((await io.series(query, null)).series, 'systolic')?.points ?? [];
    const { dates } = offsetDays(points, io.now, HEALTH_COMPLETE_DAYS + 1);
    return dates.map((date) => ({ date, bpReadings: points.filter((p) => p.date === date).length }));
  },
};
