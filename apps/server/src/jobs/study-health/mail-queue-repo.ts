/*
 * SQL of study health's mail queue (decision 033): the linkError mails queued
 * per recipient, the digests and mails not mailed yet, each locked while a
 * worker sends it, marked mailed, or counted as a failed try and given up
 * at the limit. repo.ts, the rest of the jobs' SQL, re-exports it.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

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
