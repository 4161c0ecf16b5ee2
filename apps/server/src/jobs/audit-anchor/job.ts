/*
 * Daily: verify the whole audit chain (against the anchors written so far),
 * keep the result for Sys_Admins, and write today's chain head to the log and
 * to the anchor file outside the database. A broken chain is logged as an
 * error and no new anchor is written over it.
 */
import { z } from 'zod';
import { appendAnchor, readAnchors } from '../../audit/anchors.js';
import { verifyAndRecord } from '../../audit/verify-chain.js';
import { defineJob } from '../job-definition.js';

export const auditAnchor = defineJob({
  name: 'audit-anchor',
  payload: z.object({}).strict(),
  async handler(ctx) {
    const file = ctx.config.auditAnchorFile;
    const now = ctx.now();
    const v = await verifyAndRecord(ctx.db, readAnchors(file), 'job', now);
    if (!v.ok) {
      console.error(`[trialwear] [audit] CHAIN BROKEN: ${JSON.stringify(v.firstBreak)}`);
      throw new Error(`Audit chain broken at position ${v.firstBreak?.seq}: ${v.firstBreak?.reason}`);
    }
    appendAnchor(file, { seq: v.head.seq, hash: v.head.hash, at: now.toISOString() });
    console.log(
      `[trialwear] [audit] chain head seq=${v.head.seq} hash=${v.head.hash} (${v.entries} entries verified)`,
    );
    return { entries: v.entries, head: v.head };
  },
  singletonKey: () => 'audit-anchor',
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  expireInSeconds: 3_600,
  schedule: { cron: '5 0 * * *', payload: {} },
});
