/*
 * Hourly: delete single-use secrets that can no longer be used — expired
 * sessions and remembered devices, and email codes, password-reset tokens,
 * sign-up links and OAuth states that expired or were spent more than a day
 * ago, sign-in failure counts untouched for a week, and ended rate-limit windows. The day of grace keeps recent rows for rate windows and for support
 * ("my link did not work"); a spent or expired row is refused either way.
 */
import { z } from 'zod';
import { deleteEndedWindows } from '../../http/rate-limit-repo.js';
import { defineJob } from '../job-definition.js';
import { deleteExpired } from './repo.js';

const GRACE_MS = 24 * 60 * 60 * 1000;

export const expiredTokensCleanup = defineJob({
  name: 'expired-tokens-cleanup',
  payload: z.object({}).strict(),
  async handler(ctx) {
    const now = ctx.now();
    const counts = await deleteExpired(ctx.db, now, new Date(now.getTime() - GRACE_MS));
    // Ended windows of the shared request limits (014).
    return { ...counts, rateLimitWindows: await deleteEndedWindows(ctx.db, now) };
  },
  singletonKey: () => 'expired-tokens-cleanup',
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  expireInSeconds: 600,
  schedule: { cron: '17 * * * *', payload: {} },
});
