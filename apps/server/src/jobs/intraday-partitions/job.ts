/*
 * Daily at 02:45 UTC: the month partitions of intraday_days (decision 039)
 * for this month and the next MONTHS_AHEAD, made where missing, so the sync
 * never waits on a CREATE TABLE at a month's turn. The write path makes a
 * missing month too (a backfill of an older month); this keeps that rare.
 */
import { z } from 'zod';
import { ensureIntradayPartitions } from '../../features/readings/repo.js';
import { defineJob } from '../job-definition.js';

export const MONTHS_AHEAD = 2;

export const intradayPartitions = defineJob({
  name: 'intraday-partitions',
  payload: z.object({}).strict(),
  async handler(ctx) {
    const now = ctx.now();
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + MONTHS_AHEAD, 1));
    const [first, last] = [from, to].map((d) => d.toISOString().slice(0, 10)) as [string, string];
    // From last month: a participant west of UTC is still in it when UTC's month has turned.
    await ensureIntradayPartitions(ctx.db, first, last);
    return { from: first, to: last };
  },
  singletonKey: () => 'intraday-partitions',
  retry: { limit: 3, delaySeconds: 300, backoff: true },
  expireInSeconds: 600,
  schedule: { cron: '45 2 * * *', payload: {} },
});
