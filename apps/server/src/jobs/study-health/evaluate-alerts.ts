/*
 * Alerts (issue #23 item 4): for every trial with linked devices, each
 * participant's rules that hold (features/study-health/evaluate-rules.ts,
 * over the same table the page shows) open an alert once — the partial
 * unique index allows one open alert per participant × rule, so a re-run or
 * a second worker raises nothing twice — and open alerts whose condition
 * cleared close by themselves. Each opening and closing is audited (by the
 * system). One transaction per trial, a few statements per trial (not per
 * participant). A linkError alert's opening queues,
 * in that transaction, its immediate e-mail to the trial's subscribed staff
 * (one row per recipient: sent once per opened alert), delivered right after
 * the commit (mail.ts; the digest job retries what failed). What holds for
 * the whole trial (its newest finished REDCap push, when it failed: the
 * redcapPush rule, decision 048) is read once per trial; a push runs this
 * evaluation for its trial as soon as it finishes (features/redcap/push.ts).
 */
import { HEALTH_RULE_LIMITS } from '@trialwear/contract';
import { addDays, localDate } from '@trialwear/zone';
import type { TrialScope } from '../../access/index.js';
import { systemScope } from '../../access/system.js';
import type { AppContext } from '../../app-context.js';
import { type AuditEntry, recordAudits } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { newestFinishedPush } from '../../features/redcap/repo.js';
import { holdingRules, type TrialHealthState } from '../../features/study-health/evaluate-rules.js';
import { trialHealthTable, trialRules } from '../../features/study-health/service.js';
import { checkDeviceHealth } from '../device-health/check-device.js';
import { sendDueDigests } from './digest.js';
import { deliverHealthMail } from './mail.js';
import * as repo from './repo.js';

export interface AlertsSummary {
  trials: number;
  opened: number;
  closed: number;
}

export async function evaluateTrialAlerts(ctx: AppContext, scope: TrialScope) {
  const now = ctx.now();
  const rules = await trialRules(ctx.db, scope);
  // The longest run a rule looks back over, the day a participant's own date may be ahead of the
  // trial's, and today: within the table's limit.
  const longest = Math.max(rules.lowWear.days, rules.lowCgmActive.days, rules.noBpReading.days);
  const to = addDays(localDate(rules.timezone, now), 1);
  const from = addDays(to, -Math.min(longest + 2, HEALTH_RULE_LIMITS.maxRangeDays - 1));
  const table = await trialHealthTable(ctx, scope, { from, to });
  const trial = await trialHealthState(ctx, scope);
  // What holds, for every participant (pure); then one statement opens the new alerts and one
  // closes those that cleared, with their audit rows in one insert: a round trip per participant
  // and rule had made the 1,000-participant trial's evaluation take seconds (bench/study-health.ts).
  const holding: repo.HoldingAlert[] = table.participants.flatMap((p) =>
    holdingRules(table.rules, p, now, trial).map((h) => ({
      participantId: p.participantId,
      ruleKey: h.ruleKey,
      detail: h.detail,
    })),
  );
  const detailOf = new Map(holding.map((h) => [`${h.participantId}:${h.ruleKey}`, h.detail]));
  let opened = 0;
  let closed = 0;
  let queuedMail = 0;
  await inTransaction(ctx, async (tx) => {
    const audits: AuditEntry[] = [];
    const system = { userId: null, teamId: scope.teamId, entityType: 'health_alert' } as const;
    let recipients: number[] | null = null;
    for (const a of await repo.openAlertsOf(tx.db, scope, holding, now)) {
      opened++;
      if (a.rule_key === 'linkError') {
        recipients ??= await repo.subscribedStaff(tx.db, scope);
        await repo.queueAlertMails(tx.db, a.id, recipients, now);
        queuedMail += recipients.length;
      }
      audits.push({
        ...system,
        action: 'study_health.alert.opened',
        entityId: a.id,
        after: {
          participantId: a.participant_id,
          ruleKey: a.rule_key,
          detail: detailOf.get(`${a.participant_id}:${a.rule_key}`),
        },
      });
    }
    const participantIds = table.participants.map((p) => p.participantId);
    for (const g of await repo.closeAlertsExcept(tx.db, scope, participantIds, holding, now)) {
      closed++;
      audits.push({
        ...system,
        action: 'study_health.alert.closed',
        entityId: g.id,
        after: { participantId: g.participant_id, ruleKey: g.rule_key, closedAt: now.toISOString() },
      });
    }
    await recordAudits(tx.db, audits);
  });
  if (queuedMail > 0) {
    // Committed: sent now; a failure waits for the digest job's next run (every 15 minutes).
    const { failed } = await deliverHealthMail(ctx, scope.trialId);
    if (failed > 0)
      console.error(`[trialwear] study health: ${failed} link mail(s) failed; the digest job retries`);
  }
  return { opened, closed };
}

/** What the rules read of the whole trial: its newest finished REDCap push when that failed. */
async function trialHealthState(ctx: AppContext, scope: TrialScope): Promise<TrialHealthState> {
  const push = await newestFinishedPush(ctx.db, scope);
  return {
    redcapPushFailed:
      push?.status === 'failed'
        ? {
            pushId: push.id,
            failedAt: (push.finished_at ?? ctx.now()).toISOString(),
            error: push.error,
            willRetry: push.will_retry,
          }
        : null,
  };
}

/** Every trial with linked devices or REDCap (or one), one after the other. */
export async function evaluateAlerts(
  ctx: AppContext,
  trialId?: number,
  why: 'job' | 'cli' = 'job',
): Promise<AlertsSummary> {
  const summary: AlertsSummary = { trials: 0, opened: 0, closed: 0 };
  for (const t of await repo.trialsToEvaluate(ctx.db, trialId)) {
    const r = await evaluateTrialAlerts(ctx, systemScope.trial(why, t.team_id, t.id));
    summary.trials++;
    summary.opened += r.opened;
    summary.closed += r.closed;
  }
  return summary;
}

/**
 * `npm run cli -- study-health-now [--trial ID]`: every authorized device of
 * the trial (or of all trials) checked now, then the rules evaluated, then
 * any digest due (its trial-local time reached, not yet sent today) sent.
 */
export async function studyHealthNow(ctx: AppContext, trialId?: number) {
  const checks: Record<string, number> = {};
  for (const d of await repo.devicesOfTrial(ctx.db, trialId)) {
    const r = await checkDeviceHealth(ctx, d.id);
    checks[r.status] = (checks[r.status] ?? 0) + 1;
  }
  const alerts = await evaluateAlerts(ctx, trialId, 'cli');
  return { checks, ...alerts, ...(await sendDueDigests(ctx, 'cli', trialId)) };
}
