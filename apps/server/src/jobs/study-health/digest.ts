/*
 * The daily digest (issue #23 item 5, decision 033). Every 15 minutes (UTC)
 * each trial someone subscribed to is looked at in its own time zone: once
 * the trial-local clock has reached the digest's time (default 08:00) and
 * the digest is enabled, every subscribed staff member who still sees the
 * trial (access module: Admin or Sys_Admin of the team, a User on the trial;
 * never a Viewer) and has no digest of that trial-local date gets one: a
 * `health_digests_sent` row claimed with INSERT … ON CONFLICT DO NOTHING,
 * holding the trial's open alerts and which of them are new since the
 * recipient's previous digest. The claim is the mail's durable queue entry
 * (mail.ts delivers it), so a re-run, a second worker or the CLI at the same
 * time claim nothing twice. Nothing open: the day's row is claimed empty and
 * no mail goes out.
 */
import { wallClock } from '@trialwear/zone';
import { systemScope } from '../../access/system.js';
import type { AppContext } from '../../app-context.js';
import { inTransaction } from '../../db/transaction.js';
import { trialRules } from '../../features/study-health/service.js';
import { deliverHealthMail } from './mail.js';
import * as repo from './repo.js';

export interface DigestSummary {
  /** Trials whose digest was due now for at least one recipient. */
  digestTrials: number;
  /** Digests claimed with alerts (one mail each). */
  digests: number;
  /** Mails sent by this run (digests and linkError mails queued before). */
  mailed: number;
}

/** Claims the due digests (of one trial, or all); how many trials were due and how many digests have alerts. */
export async function queueDueDigests(ctx: AppContext, why: 'job' | 'cli', trialId?: number) {
  const now = ctx.now();
  let trials = 0;
  let digests = 0;
  for (const t of await repo.digestTrials(ctx.db, trialId)) {
    const scope = systemScope.trial(why, t.team_id, t.id);
    const rules = await trialRules(ctx.db, scope);
    if (!rules.digest.enabled) continue;
    const wall = wallClock(rules.timezone, now);
    const localDate = wall.slice(0, 10);
    if (wall.slice(11, 16) < rules.digest.localTime) continue;
    const done = await repo.digestsOfDate(ctx.db, t.id, localDate);
    const recipients = (await repo.subscribedStaff(ctx.db, scope)).filter((u) => !done.has(u));
    if (recipients.length === 0) continue;
    trials++;
    digests += await inTransaction(ctx, async (tx) => {
      const alertIds = await repo.openAlertIds(tx.db, scope);
      let claimed = 0;
      for (const userId of recipients) {
        const before = await repo.previousDigestAlerts(tx.db, t.id, userId, localDate);
        const seen = new Set(before ?? []);
        const newAlertIds = alertIds.filter((id) => !seen.has(id));
        const ok = await repo.claimDigest(tx.db, {
          trialId: t.id,
          localDate,
          userId,
          alertIds,
          newAlertIds,
          now,
        });
        if (ok && alertIds.length > 0) claimed++;
      }
      return claimed;
    });
  }
  return { digestTrials: trials, digests };
}

/** The digest job's run (and the CLI's): claim what is due, then send every mail still queued. */
export async function sendDueDigests(
  ctx: AppContext,
  why: 'job' | 'cli' = 'job',
  trialId?: number,
): Promise<DigestSummary> {
  const queued = await queueDueDigests(ctx, why, trialId);
  const { mailed, failed } = await deliverHealthMail(ctx, trialId);
  if (failed > 0)
    console.error(`[trialwear] study health: ${failed} mail(s) failed; the next run retries them`);
  return { ...queued, mailed };
}
