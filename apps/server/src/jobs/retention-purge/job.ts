/*
 * Daily at 03:30 UTC: delete the readings past their retention (purge.ts).
 * One run at a time across all processes (singleton key); a failed run is
 * retried later, and a retry simply finds what is still past retention.
 */
import { z } from 'zod';
import { defineJob } from '../job-definition.js';
import { purgeExpiredReadings } from './purge.js';

export const retentionPurge = defineJob({
  name: 'retention-purge',
  payload: z.object({}).strict(),
  async handler(ctx) {
    const result = await purgeExpiredReadings(ctx.db, ctx.now());
    // The per-pair detail is in the audit log; the job's log line keeps the summary.
    return { pairs: result.purged.length, total: result.total, ms: result.ms };
  },
  singletonKey: () => 'retention-purge',
  retry: { limit: 3, delaySeconds: 600, backoff: true },
  expireInSeconds: 3 * 3_600,
  schedule: { cron: '30 3 * * *', payload: {} },
});
