/*
 * Study health's e-mail (issue #23 item 5, decision 033): the daily digest
 * and the immediate linkError mail, through the portal's mail path (SMTP or
 * the outbox). What to send is decided and queued elsewhere, in the
 * transaction that decides it (digest.ts claims a `health_digests_sent` row;
 * evaluate-alerts.ts queues `health_alert_mails` rows with the alert's
 * opening). This module delivers the rows not yet mailed: each in its own
 * transaction that locks the row (FOR UPDATE SKIP LOCKED: a row another
 * worker holds is skipped), sends, and marks it mailed; a failed send rolls
 * back and the row waits for the next run (the digest job's every 15
 * minutes), its failure counted on the row: the MAIL_ATTEMPTS-th is the
 * last, the mail given up with an audit row (019). The recipient is checked again when the mail goes out (still
 * subscribed, still staff who see the trial). Plain text: participant codes, rules in words, links into the
 * portal — never a participant's e-mail or data.
 */
import type { HealthRuleKey } from '@trialwear/contract';
import { wallClock } from '@trialwear/zone';
import { systemScope } from '../../access/system.js';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import { trialRules } from '../../features/study-health/service.js';
import { findMailRecipient } from '../../features/users/repo.js';
import * as repo from './repo.js';

export interface MailSummary {
  mailed: number;
  /** Failed tries this run; `givenUp` of them were the last allowed try of their mail. */
  failed: number;
  givenUp: number;
}

/**
 * Tries of one queued mail before it is given up: the digest job runs every 15 minutes, so a mail
 * refused eight times in a row has failed for about two hours.
 */
export const MAIL_ATTEMPTS = 8;

type AlertRow = Awaited<ReturnType<typeof repo.alertsForMail>>[number];

const PROVIDER: Record<string, string> = {
  fitbit: 'Fitbit',
  google_health: 'Fitbit (Google Health)',
  omron: 'Omron',
  dexcom: 'Dexcom',
};
const providerName = (p: unknown) => PROVIDER[String(p)] ?? String(p);

type Detail = Record<string, unknown> & { devices?: Array<Record<string, unknown>>; days?: unknown[] };

const devicesText = (d: Detail, show: (x: Record<string, unknown>) => string) =>
  Array.isArray(d.devices) && d.devices.length ? ` (${d.devices.map(show).join(', ')})` : '';

/** The rule that holds, in words, with what it saw. */
export function ruleInWords(ruleKey: HealthRuleKey, detail: unknown): string {
  const d = (detail && typeof detail === 'object' ? detail : {}) as Detail;
  const days = Array.isArray(d.days) ? d.days.length : d.days;
  switch (ruleKey) {
    case 'lowWear':
      return `wear below ${d.minHours ?? '?'} hours a day on ${days ?? '?'} consecutive days`;
    case 'noSync':
      return `no sync for more than ${d.hours ?? '?'} hours${devicesText(d, (x) => providerName(x.provider))}`;
    case 'lowBattery':
      return `battery below ${d.percent ?? '?'} %${devicesText(d, (x) => `${providerName(x.provider)} at ${x.batteryLevel} %`)}`;
    case 'linkError':
      return `device link errored or revoked${devicesText(d, (x) => `${providerName(x.provider)}: ${x.linkStatus}`)}`;
    case 'lowCgmActive':
      return `CGM active time below ${d.percent ?? '?'} % on ${days ?? '?'} consecutive days`;
    case 'noBpReading':
      return `no blood-pressure reading for ${days ?? '?'} days`;
    case 'redcapPush':
      // Not REDCap's error text (it may name records and values): the log on the trial's REDCap section has it.
      return `the trial's REDCap push${typeof d.pushId === 'number' ? ` #${d.pushId}` : ''} failed; ${d.willRetry ? 'it will be retried' : 'it needs an Admin (see the push log)'}`;
  }
}

const participantLink = (ctx: AppContext, a: { trial_id: number; participant_id: number }) =>
  `${ctx.config.publicUrl}/ParticipantOverview?trialId=${a.trial_id}&participantId=${a.participant_id}`;
const studyHealthLink = (ctx: AppContext, trialId: number) =>
  `${ctx.config.publicUrl}/StudyHealth?trialId=${trialId}`;
const code = (a: AlertRow) => a.participant_code ?? `participant #${a.participant_id}`;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

const since = (zone: string, a: AlertRow) => wallClock(zone, a.opened_at).replace('T', ' ').slice(0, 16);
/** Participant codes listed for one failed REDCap push before "…". */
const PUSH_CODES = 10;

/**
 * One line per alert with its participant's link; the redcapPush alerts (one per coded participant
 * of the trial, for one failed push) one line per push naming its participants, not hundreds.
 */
function alertLines(ctx: AppContext, alerts: readonly AlertRow[], zone: string): string[] {
  const byPush = new Map<string, AlertRow[]>();
  const lines: string[] = [];
  for (const a of alerts) {
    if (a.rule_key === 'redcapPush') {
      const key = String((a.detail as { pushId?: unknown } | null)?.pushId);
      byPush.set(key, [...(byPush.get(key) ?? []), a]);
      continue;
    }
    lines.push(
      `- ${code(a)}: ${ruleInWords(a.rule_key, a.detail)}, since ${since(zone, a)}${a.acknowledged_at ? ' (acknowledged)' : ''}`,
      `  ${participantLink(ctx, a)}`,
    );
  }
  for (const group of byPush.values()) {
    const first = group[0]!;
    const codes = group.slice(0, PUSH_CODES).map(code).join(', ');
    const more = group.length > PUSH_CODES ? ', …' : '';
    const acknowledged = group.filter((a) => a.acknowledged_at).length;
    lines.push(
      `- ${ruleInWords(first.rule_key, first.detail)}: ${plural(group.length, 'participant')} (${codes}${more}), since ${since(zone, first)}${acknowledged ? ` (${acknowledged} acknowledged)` : ''}`,
      `  ${studyHealthLink(ctx, first.trial_id)}`,
    );
  }
  return lines;
}

/** The digest's text: the new alerts first, then the ones still open since an earlier digest. */
export function digestMail(
  ctx: AppContext,
  m: {
    firstName: string;
    trial: { id: number; trial_name: string; trial_number: string };
    localDate: string;
    zone: string;
    alerts: readonly AlertRow[];
    newIds: ReadonlySet<number>;
  },
) {
  const fresh = m.alerts.filter((a) => m.newIds.has(a.id));
  const still = m.alerts.filter((a) => !m.newIds.has(a.id));
  const lines = [
    `Hello ${m.firstName},`,
    '',
    `Study health digest of trial "${m.trial.trial_name}" (${m.trial.trial_number}) for ${m.localDate} (${m.zone}): ${plural(m.alerts.length, 'open alert')}, ${fresh.length} new since your last digest.`,
    ...(fresh.length ? ['', 'New:', ...alertLines(ctx, fresh, m.zone)] : []),
    ...(still.length ? ['', 'Still open:', ...alertLines(ctx, still, m.zone)] : []),
    '',
    `All alerts of the trial, on the Study health page: ${studyHealthLink(ctx, m.trial.id)}`,
    '',
    'You receive this e-mail because you chose the daily digest for this trial; you can turn it off on the Study health page.',
  ];
  return {
    subject: `TrialWear study health: ${plural(m.alerts.length, 'open alert')} in ${m.trial.trial_name} (${m.localDate})`,
    text: lines.join('\n'),
  };
}

/** The immediate linkError mail: the participant and the device whose link broke. */
export function linkErrorMail(
  ctx: AppContext,
  m: { firstName: string; trial: { id: number; trial_name: string; trial_number: string }; alert: AlertRow },
) {
  const d = (m.alert.detail ?? {}) as Detail;
  const devices = Array.isArray(d.devices) ? d.devices : [];
  const what = devices.length
    ? devices.map((x) => `${providerName(x.provider)} (link ${x.linkStatus})`).join(', ')
    : 'a device';
  return {
    subject: `TrialWear: a device link of ${code(m.alert)} in ${m.trial.trial_name} is broken`,
    text: [
      `Hello ${m.firstName},`,
      '',
      `The device link of participant ${code(m.alert)} in trial "${m.trial.trial_name}" (${m.trial.trial_number}) is errored or revoked: ${what}. No data arrives from it until the participant links the device again.`,
      '',
      `The participant: ${participantLink(ctx, m.alert)}`,
      `Study health: ${studyHealthLink(ctx, m.trial.id)}`,
      '',
      'You receive this e-mail because you chose the daily digest for this trial; you can turn it off on the Study health page.',
    ].join('\n'),
  };
}

/** The recipient still subscribed and still staff who see the trial, when the mail goes out. */
async function mayReceive(db: Db, trial: { id: number; team_id: number } | undefined, userId: number) {
  return (
    trial !== undefined &&
    repo.isSubscribedStaff(db, systemScope.trial('job', trial.team_id, trial.id), userId)
  );
}

/**
 * Sends every queued study-health mail not yet sent (of one trial, or all).
 * Each row: locked, sent, marked, in one transaction; a row another worker
 * holds is skipped (it sends it), a failed send is counted and retried later.
 */
export async function deliverHealthMail(ctx: AppContext, trialId?: number): Promise<MailSummary> {
  const summary: MailSummary = { mailed: 0, failed: 0, givenUp: 0 };
  /**
   * One queued mail: `work` sends it; a failure is counted on its row (`failed`), and the
   * MAIL_ATTEMPTS-th gives it up, with an audit row in the same transaction.
   */
  const attempt = async (
    label: string,
    work: () => Promise<boolean>,
    failed: (db: Db, error: string) => Promise<repo.MailFailure | undefined>,
    audit: {
      entityType: string;
      entityId: string;
      userId: number;
      trialOf: (db: Db) => Promise<number | undefined>;
    },
  ) => {
    try {
      if (await work()) summary.mailed++;
    } catch (err) {
      summary.failed++;
      const error = String((err as Error)?.message ?? err).slice(0, 1000);
      const outcome = await inTransaction(ctx, async (tx) => {
        const failure = await failed(tx.db, error);
        if (!failure?.givenUp) return failure;
        const trialId = await audit.trialOf(tx.db);
        const trial = trialId === undefined ? undefined : await repo.trialForMail(tx.db, trialId);
        await recordAudit(tx.db, {
          userId: null,
          teamId: trial?.team_id ?? null,
          action: 'study_health.mail_given_up',
          entityType: audit.entityType,
          entityId: audit.entityId,
          after: { recipientUserId: audit.userId, attempts: failure.attempts, lastError: error },
        });
        return failure;
      });
      if (outcome?.givenUp) summary.givenUp++;
      console.error(
        `[trialwear] study health ${label}: the mail failed (try ${outcome?.attempts ?? '?'} of ${MAIL_ATTEMPTS}${outcome?.givenUp ? ', given up' : ''}): ${error}`,
      );
    }
  };

  for (const key of await repo.unmailedDigests(ctx.db, trialId)) {
    const label = `digest ${key.trial_id}/${key.local_date}/${key.user_id}`;
    await attempt(
      label,
      () =>
        inTransaction(ctx, async (tx) => {
          const row = await repo.lockUnmailedDigest(tx.db, key);
          if (!row) return false;
          const [trial, user] = await Promise.all([
            repo.trialForMail(tx.db, row.trial_id),
            findMailRecipient(tx.db, row.user_id),
          ]);
          const alerts = await repo.alertsForMail(tx.db, row.trial_id, row.alert_ids);
          const allowed = await mayReceive(tx.db, trial, row.user_id);
          if (!trial || !user || alerts.length === 0 || !allowed) {
            // Nothing left to tell (the trial or the alerts were deleted), or the recipient no longer
            // sees the trial or unsubscribed since the claim: done, without a mail.
            await repo.markDigestMailed(tx.db, key, ctx.now());
            return false;
          }
          const mail = digestMail(ctx, {
            firstName: user.first_name,
            trial,
            localDate: row.local_date,
            zone: (await trialRules(tx.db, systemScope.trial('job', trial.team_id, trial.id))).timezone,
            alerts,
            newIds: new Set(row.new_alert_ids),
          });
          await ctx.mailer.send({ to: user.email, ...mail });
          await repo.markDigestMailed(tx.db, key, ctx.now());
          return true;
        }),
      (db, error) => repo.recordDigestFailure(db, key, { error, now: ctx.now(), limit: MAIL_ATTEMPTS }),
      {
        entityType: 'health_digest',
        entityId: `${key.trial_id}/${key.local_date}/${key.user_id}`,
        userId: key.user_id,
        trialOf: async () => key.trial_id,
      },
    );
  }

  for (const key of await repo.unmailedAlertMails(ctx.db, trialId)) {
    await attempt(
      `alert ${key.alert_id}/${key.user_id}`,
      () =>
        inTransaction(ctx, async (tx) => {
          const row = await repo.lockUnmailedAlertMail(tx.db, key);
          if (!row) return false;
          const user = await findMailRecipient(tx.db, row.user_id);
          const trialId = await repo.trialOfAlert(tx.db, row.alert_id);
          const trial = trialId === undefined ? undefined : await repo.trialForMail(tx.db, trialId);
          const [full] = trial ? await repo.alertsForMail(tx.db, trial.id, [row.alert_id]) : [];
          const allowed = await mayReceive(tx.db, trial, row.user_id);
          if (!user || !trial || !full || !allowed) {
            await repo.markAlertMailMailed(tx.db, key, ctx.now());
            return false;
          }
          await ctx.mailer.send({
            to: user.email,
            ...linkErrorMail(ctx, { firstName: user.first_name, trial, alert: full }),
          });
          await repo.markAlertMailMailed(tx.db, key, ctx.now());
          return true;
        }),
      (db, error) => repo.recordAlertMailFailure(db, key, { error, now: ctx.now(), limit: MAIL_ATTEMPTS }),
      {
        entityType: 'health_alert_mail',
        entityId: `${key.alert_id}/${key.user_id}`,
        userId: key.user_id,
        trialOf: (db) => repo.trialOfAlert(db, key.alert_id),
      },
    );
  }
  return summary;
}
