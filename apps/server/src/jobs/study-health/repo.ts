/**
 * SQL of the alerts' evaluation (which trials to evaluate, an alert opened or
 * closed) and of study health's e-mail: the digest's trials, recipients and
 * claims, the linkError mail's rows, and the rows not yet mailed.
 */
import type { HealthRuleKey } from '@trialwear/contract';
import { sql } from 'kysely';
import { type TrialScope, trialStaffIdIn } from '../../access/index.js';
import type { Db } from '../../db/database.js';

/**
 * Trials with at least one linked device or with REDCap settings (the redcapPush rule; nothing to
 * evaluate elsewhere), or the one asked for.
 */
export function trialsToEvaluate(db: Db, trialId?: number) {
  return db
    .selectFrom('trials as t')
    .select(['t.id', 't.team_id'])
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('participants as p')
            .innerJoin('participant_devices as d', 'd.participant_id', 'p.id')
            .select(sql`1`.as('x'))
            .whereRef('p.trial_id', '=', 't.id'),
        ),
        eb.exists(
          eb.selectFrom('redcap_settings as r').select(sql`1`.as('x')).whereRef('r.trial_id', '=', 't.id'),
        ),
      ]),
    )
    .$if(trialId !== undefined, (q) => q.where('t.id', '=', trialId!))
    .orderBy('t.id')
    .execute();
}

export interface HoldingAlert {
  participantId: number;
  ruleKey: HealthRuleKey;
  detail: unknown;
}

/**
 * Opens, in one statement, each alert of the list that is not open yet (the
 * partial unique index decides): the opened ones' ids, in
 * the list's order.
 */
export async function openAlertsOf(db: Db, scope: TrialScope, alerts: readonly HoldingAlert[], now: Date) {
  if (alerts.length === 0) return [];
  const rows = await sql<{ id: number; participant_id: number; rule_key: HealthRuleKey }>`
    INSERT INTO health_alerts (team_id, trial_id, participant_id, rule_key, opened_at, detail)
    SELECT ${scope.teamId}, ${scope.trialId}, x.participant_id, x.rule_key, ${now}, x.detail
    FROM unnest(
      ${alerts.map((a) => a.participantId)}::integer[],
      ${alerts.map((a) => a.ruleKey)}::text[],
      ${alerts.map((a) => JSON.stringify(a.detail))}::jsonb[]
    ) WITH ORDINALITY AS x(participant_id, rule_key, detail, n)
    ORDER BY x.n
    ON CONFLICT (participant_id, rule_key) WHERE closed_at IS NULL DO NOTHING
    RETURNING id, participant_id, rule_key`.execute(db);
  return rows.rows.sort((a, b) => a.id - b.id);
}

/**
 * Closes, in one statement, the open alerts of the trial's given participants
 * whose participant × rule is not among those holding: their ids, participants
 * and rules.
 */
export async function closeAlertsExcept(
  db: Db,
  scope: TrialScope,
  participantIds: readonly number[],
  holding: readonly { participantId: number; ruleKey: HealthRuleKey }[],
  now: Date,
) {
  if (participantIds.length === 0) return [];
  const rows = await sql<{ id: number; participant_id: number; rule_key: HealthRuleKey }>`
    UPDATE health_alerts a SET closed_at = ${now}
    WHERE a.trial_id = ${scope.trialId}
      AND a.closed_at IS NULL
      AND a.participant_id = ANY(${participantIds}::integer[])
      AND NOT EXISTS (
        SELECT 1 FROM unnest(${holding.map((h) => h.participantId)}::integer[], ${holding.map((h) => h.ruleKey)}::text[])
          AS h(participant_id, rule_key)
        WHERE h.participant_id = a.participant_id AND h.rule_key = a.rule_key)
    RETURNING a.id, a.participant_id, a.rule_key`.execute(db);
  return rows.rows.sort((a, b) => a.id - b.id);
}

/** The authorized devices of the trial's participants (all trials: every authorized device). */
export function devicesOfTrial(db: Db, trialId?: number) {
  return db
    .selectFrom('participant_devices as d')
    .innerJoin('participants as p', 'p.id', 'd.participant_id')
    .select(['d.id'])
    .where('d.authorization_status', '=', 'authorized')
    .$if(trialId !== undefined, (q) => q.where('p.trial_id', '=', trialId!))
    .orderBy('d.id')
    .execute();
}

// ---------------------------------------------------------------- e-mail

/** Trials someone subscribed to (nobody to mail elsewhere), or the one asked for, with their team. */
export function digestTrials(db: Db, trialId?: number) {
  return db
    .selectFrom('trials as t')
    .select(['t.id', 't.team_id'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('health_digest_subscriptions as s')
          .select(sql`1`.as('x'))
          .whereRef('s.trial_id', '=', 't.id')
          .where('s.digest', '=', true),
      ),
    )
    .$if(trialId !== undefined, (q) => q.where('t.id', '=', trialId!))
    .orderBy('t.id')
    .execute();
}

/** The subscribed staff who see the trial now (access module's rule): the digest's and the linkError mail's recipients. */
export async function subscribedStaff(db: Db, scope: TrialScope): Promise<number[]> {
  const rows = await db
    .selectFrom('health_digest_subscriptions as s')
    .select('s.user_id')
    .where('s.trial_id', '=', scope.trialId)
    .where('s.digest', '=', true)
    .where(trialStaffIdIn('s.user_id', scope))
    .orderBy('s.user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

/** Whether the user is still one of the trial's subscribed staff (checked again when the mail goes out). */
export async function isSubscribedStaff(db: Db, scope: TrialScope, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('health_digest_subscriptions as s')
    .select('s.user_id')
    .where('s.trial_id', '=', scope.trialId)
    .where('s.user_id', '=', userId)
    .where('s.digest', '=', true)
    .where(trialStaffIdIn('s.user_id', scope))
    .executeTakeFirst();
  return row !== undefined;
}

/** The trial's alerts not closed (acknowledged ones included: their condition still holds), oldest first. */
export async function openAlertIds(db: Db, scope: TrialScope): Promise<number[]> {
  const rows = await db
    .selectFrom('health_alerts')
    .select('id')
    .where('team_id', '=', scope.teamId)
    .where('trial_id', '=', scope.trialId)
    .where('closed_at', 'is', null)
    .orderBy('opened_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The recipients who already have the trial's digest of this local date. */
export async function digestsOfDate(db: Db, trialId: number, localDate: string): Promise<Set<number>> {
  const rows = await db
    .selectFrom('health_digests_sent')
    .select('user_id')
    .where('trial_id', '=', trialId)
    .where('local_date', '=', localDate)
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

/** The alerts of the recipient's previous digest of the trial (before this date); null without one. */
export async function previousDigestAlerts(db: Db, trialId: number, userId: number, localDate: string) {
  const row = await db
    .selectFrom('health_digests_sent')
    .select('alert_ids')
    .where('trial_id', '=', trialId)
    .where('user_id', '=', userId)
    .where('local_date', '<', localDate)
    .orderBy('local_date', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? row.alert_ids : null;
}

/** Claims the digest of trial × local date × recipient; false when another run has it (the primary key decides). */
export async function claimDigest(
  db: Db,
  d: {
    trialId: number;
    localDate: string;
    userId: number;
    alertIds: number[];
    newAlertIds: number[];
    now: Date;
  },
): Promise<boolean> {
  const row = await sql<{ user_id: number }>`
    INSERT INTO health_digests_sent (trial_id, local_date, user_id, alert_ids, new_alert_ids, sent_at)
    VALUES (${d.trialId}, ${d.localDate}, ${d.userId}, ${d.alertIds}::integer[], ${d.newAlertIds}::integer[], ${d.now})
    ON CONFLICT DO NOTHING
    RETURNING user_id`.execute(db);
  return row.rows.length > 0;
}

export * from './mail-queue-repo.js';
