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

/** Queues the immediate e-mail of an opened linkError alert to each recipient. */
export async function queueAlertMails(db: Db, alertId: number, userIds: readonly number[], now: Date) {
  if (userIds.length === 0) return;
  await db
    .insertInto('health_alert_mails')
    .values(userIds.map((userId) => ({ alert_id: alertId, user_id: userId, queued_at: now })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export interface DigestKey {
  trial_id: number;
  local_date: string;
  user_id: number;
}
export interface AlertMailKey {
  alert_id: number;
  user_id: number;
}

/** Digests claimed with alerts and not mailed yet (of one trial, or all), oldest first. */
export function unmailedDigests(db: Db, trialId?: number): Promise<DigestKey[]> {
  return db
    .selectFrom('health_digests_sent')
    .select(['trial_id', sql<string>`local_date::text`.as('local_date'), 'user_id'])
    .where('mailed_at', 'is', null)
    .where('given_up_at', 'is', null)
    .where(sql<boolean>`cardinality(alert_ids) > 0`)
    .$if(trialId !== undefined, (q) => q.where('trial_id', '=', trialId!))
    .orderBy('sent_at')
    .limit(500)
    .execute();
}

/** linkError mails not mailed yet (of one trial, or all), oldest first. */
export function unmailedAlertMails(db: Db, trialId?: number): Promise<AlertMailKey[]> {
  return db
    .selectFrom('health_alert_mails as m')
    .innerJoin('health_alerts as a', 'a.id', 'm.alert_id')
    .select(['m.alert_id', 'm.user_id'])
    .where('m.mailed_at', 'is', null)
    .where('m.given_up_at', 'is', null)
    .$if(trialId !== undefined, (q) => q.where('a.trial_id', '=', trialId!))
    .orderBy('m.queued_at')
    .limit(500)
    .execute();
}

/** Inside a transaction: the digest row, locked, if it is still to be mailed and no other worker holds it. */
export function lockUnmailedDigest(db: Db, k: DigestKey) {
  return db
    .selectFrom('health_digests_sent')
    .select([
      'trial_id',
      sql<string>`local_date::text`.as('local_date'),
      'user_id',
      'alert_ids',
      'new_alert_ids',
    ])
    .where('trial_id', '=', k.trial_id)
    .where('local_date', '=', k.local_date)
    .where('user_id', '=', k.user_id)
    .where('mailed_at', 'is', null)
    .where('given_up_at', 'is', null)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export async function markDigestMailed(db: Db, k: DigestKey, now: Date) {
  await db
    .updateTable('health_digests_sent')
    .set({ mailed_at: now })
    .where('trial_id', '=', k.trial_id)
    .where('local_date', '=', k.local_date)
    .where('user_id', '=', k.user_id)
    .execute();
}

/** Inside a transaction: the linkError mail row, locked, if it is still to be mailed and no other worker holds it. */
export function lockUnmailedAlertMail(db: Db, k: AlertMailKey) {
  return db
    .selectFrom('health_alert_mails')
    .select(['alert_id', 'user_id'])
    .where('alert_id', '=', k.alert_id)
    .where('user_id', '=', k.user_id)
    .where('mailed_at', 'is', null)
    .where('given_up_at', 'is', null)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export async function markAlertMailMailed(db: Db, k: AlertMailKey, now: Date) {
  await db
    .updateTable('health_alert_mails')
    .set({ mailed_at: now })
    .where('alert_id', '=', k.alert_id)
    .where('user_id', '=', k.user_id)
    .execute();
}

/** A failed try of a queued mail: counted with its error; given up (marked) at the `limit`-th. */
export interface MailFailure {
  attempts: number;
  givenUp: boolean;
}

/** The update of a failed try: one more, its error, and given up at the `limit`-th. */
const failedTry = (v: { error: string; now: Date; limit: number }) => ({
  attempts: sql<number>`attempts + 1`,
  last_error: v.error,
  given_up_at: sql<Date | null>`CASE WHEN attempts + 1 >= ${v.limit} THEN ${v.now}::timestamptz END`,
});
const toFailure = (
  row: { attempts: number; given_up_at: Date | null } | undefined,
): MailFailure | undefined => row && { attempts: row.attempts, givenUp: row.given_up_at !== null };

export async function recordDigestFailure(
  db: Db,
  k: DigestKey,
  v: { error: string; now: Date; limit: number },
): Promise<MailFailure | undefined> {
  return toFailure(
    await db
      .updateTable('health_digests_sent')
      .set(failedTry(v))
      .where('trial_id', '=', k.trial_id)
      .where('local_date', '=', k.local_date)
      .where('user_id', '=', k.user_id)
      .where('mailed_at', 'is', null)
      .where('given_up_at', 'is', null)
      .returning(['attempts', 'given_up_at'])
      .executeTakeFirst(),
  );
}

export async function recordAlertMailFailure(
  db: Db,
  k: AlertMailKey,
  v: { error: string; now: Date; limit: number },
): Promise<MailFailure | undefined> {
  return toFailure(
    await db
      .updateTable('health_alert_mails')
      .set(failedTry(v))
      .where('alert_id', '=', k.alert_id)
      .where('user_id', '=', k.user_id)
      .where('mailed_at', 'is', null)
      .where('given_up_at', 'is', null)
      .returning(['attempts', 'given_up_at'])
      .executeTakeFirst(),
  );
}

/** The trial's name, number and team, for a mail's text. */
export function trialForMail(db: Db, trialId: number) {
  return db
    .selectFrom('trials')
    .select(['id', 'team_id', 'trial_name', 'trial_number'])
    .where('id', '=', trialId)
    .executeTakeFirst();
}

/** The alerts (of this trial only) with their participant's code, in the order given by opening. */
export function alertsForMail(db: Db, trialId: number, alertIds: readonly number[]) {
  if (alertIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('health_alerts as a')
    .innerJoin('participants as p', 'p.id', 'a.participant_id')
    .select([
      'a.id',
      'a.trial_id',
      'a.participant_id',
      'p.participant_code',
      'a.rule_key',
      'a.opened_at',
      'a.acknowledged_at',
      'a.detail',
    ])
    .where('a.trial_id', '=', trialId)
    .where('a.id', 'in', [...alertIds])
    .orderBy('a.opened_at')
    .orderBy('a.id')
    .execute();
}

/** The trial of an alert. */
export async function trialOfAlert(db: Db, alertId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('health_alerts')
    .select('trial_id')
    .where('id', '=', alertId)
    .executeTakeFirst();
  return row?.trial_id;
}
