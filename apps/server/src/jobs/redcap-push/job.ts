/*
 * The nightly REDCap push (issue #25 item 3, decision 048): at 05:20 UTC,
 * after the night's syncs, `redcap-push-schedule` enqueues one `redcap-push`
 * per trial whose push is on, for the last REDCAP_NIGHTLY_DAYS complete UTC
 * dates (a day a late sync filled is sent again: a re-push overwrites the
 * same instances). A failure that may pass (REDCap unreachable, 5xx, 429) is
 * logged and thrown, so pg-boss tries again with back-off (4 more times,
 * from 10 minutes); a refusal (a wrong token, a field REDCap no longer has)
 * is logged for the Admin and not retried: it needs the Admin, not time.
 */
import { REDCAP_NIGHTLY_DAYS } from '@trialwear/contract';
import { addDays } from '@trialwear/zone';
import { z } from 'zod';
import { AppError } from '../../access/errors.js';
import { systemScope } from '../../access/system.js';
import { PushFailed, pushDailySummaries } from '../../features/redcap/push.js';
import * as repo from '../../features/redcap/repo.js';
import { defineJob, enqueue } from '../job-definition.js';

const RETRIES = 4;
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const redcapPush = defineJob({
  name: 'redcap-push',
  payload: z
    .object({
      teamId: z.number().int().positive(),
      trialId: z.number().int().positive(),
      from: date,
      to: date,
    })
    .strict(),
  async handler(ctx, { teamId, trialId, from, to }) {
    const scope = systemScope.trial('job', teamId, trialId);
    const attempt = await repo.nightlyAttempt(ctx.db, scope, from, to);
    try {
      const r = await pushDailySummaries(ctx, scope, {
        trigger: 'nightly',
        from,
        to,
        attempt,
        userId: null,
        retriesLeft: attempt <= RETRIES,
      });
      return { records: r.records, rows: r.rows };
    } catch (err) {
      // Transient and retries left: pg-boss tries again; else the log says it for the Admin.
      if (err instanceof PushFailed && err.failure.transient && attempt <= RETRIES) throw err;
      if (err instanceof PushFailed || err instanceof AppError) return { failed: err.message };
      throw err;
    }
  },
  singletonKey: ({ trialId }) => `redcap-push-${trialId}`,
  policy: 'stately',
  retry: { limit: RETRIES, delaySeconds: 600, backoff: true },
  expireInSeconds: 900,
});

export const redcapPushSchedule = defineJob({
  name: 'redcap-push-schedule',
  payload: z.object({}).strict(),
  async handler(ctx) {
    if (!ctx.boss) return { enqueued: 0 };
    const today = ctx.now().toISOString().slice(0, 10);
    const to = addDays(today, -1);
    const from = addDays(to, -(REDCAP_NIGHTLY_DAYS - 1));
    let enqueued = 0;
    for (const t of await repo.pushEnabledTrials(ctx.db))
      if (await enqueue(ctx.boss, redcapPush, { teamId: t.team_id, trialId: t.trial_id, from, to }))
        enqueued++;
    return { enqueued, from, to };
  },
  singletonKey: () => 'redcap-push-schedule',
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  expireInSeconds: 600,
  schedule: { cron: '20 5 * * *', payload: {} },
});
