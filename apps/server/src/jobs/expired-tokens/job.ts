/*
 * Hourly: delete single-use secrets that can no longer be used — expired
 * sessions and remembered devices, and email codes, password-reset tokens,
 * sign-up links and OAuth states that expired or were spent more than a day
 * ago, and sign-in failure counts untouched for a week. The day of grace keeps recent rows for rate windows and for support
 * ("my link did not work"); a spent or expired row is refused either way.
 */
import { z } from 'zod';
import { defineJob } from '../job-definition.js';
import { deleteExpired } from './repo.js';

const GRACE_MS = 24 * 60 * 60 * 1000;

export const expiredTokensCleanup = defineJob({
  name: 'expired-tokens-cleanup',
  payload: z.object({}).strict(),
  async handler(ctx) {
    const now = ctx.now();
    return deleteExpired(ctx.db, now, new Date(now.getTime() - GRACE_MS));
  },
  singletonKey: () => 'expired-tokens-cleanup',
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  expireInSeconds: 600,
  schedule: { cron: '17 * * * *', payload: {} },
});
