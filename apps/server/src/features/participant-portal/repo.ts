/** SQL of participant accounts' sign-in, sessions and the devices they share. */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export function findAccountByUsername(db: Db, username: string) {
  return db
    .selectFrom('participant_accounts')
    .select(['id', 'username', 'email', 'password_hash', 'email_verified_at', 'email_verify_token_hash'])
    .where(sql<string>`lower(username)`, '=', username.trim().toLowerCase())
    .executeTakeFirst();
}

export async function markEmailVerified(db: Db, accountId: number, now: Date) {
  await db
    .updateTable('participant_accounts')
    .set({ email_verified_at: now, email_verify_token_hash: null })
    .where('id', '=', accountId)
    .execute();
}

export async function insertSession(
  db: Db,
  s: {
    id: string;
    accountId: number;
    createdAt: Date;
    expiresAt: Date;
    ip: string;
    userAgent: string | null;
  },
) {
  await db
    .insertInto('participant_sessions')
    .values({
      id: s.id,
      account_id: s.accountId,
      created_at: s.createdAt,
      expires_at: s.expiresAt,
      ip: s.ip,
      user_agent: s.userAgent,
    })
    .execute();
}

/** The session and its account, in one query per request. */
export function findSessionAccount(db: Db, sessionId: string) {
  return db
    .selectFrom('participant_sessions as s')
    .innerJoin('participant_accounts as a', 'a.id', 's.account_id')
    .select([
      's.id as session_id',
      's.created_at',
      's.expires_at',
      'a.id as account_id',
      'a.username',
      'a.email',
      'a.email_verified_at',
    ])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
}

export async function extendSession(db: Db, sessionId: string, expiresAt: Date) {
  await db
    .updateTable('participant_sessions')
    .set({ expires_at: expiresAt })
    .where('id', '=', sessionId)
    .execute();
}

export async function deleteSession(db: Db, sessionId: string) {
  await db.deleteFrom('participant_sessions').where('id', '=', sessionId).execute();
}

/**
 * The authorized links of the participants this (confirmed) account stands
 * for: the same email in any team, or the participant the account was tied
 * to. An unconfirmed account matches nothing.
 */
function sharedLinksQuery(db: Db, accountId: number) {
  return db
    .selectFrom('participant_accounts as a')
    .innerJoin('participants as p', (join) =>
      join.on((eb) =>
        eb.or([
          eb(sql<string>`lower(p.email)`, '=', sql<string>`lower(a.email)`),
          eb('p.id', '=', eb.ref('a.participant_id')),
        ]),
      ),
    )
    .innerJoin('participant_devices as d', (join) =>
      join.onRef('d.participant_id', '=', 'p.id').onRef('d.team_id', '=', 'p.team_id'),
    )
    .innerJoin('trials as t', (join) =>
      join.onRef('t.id', '=', 'p.trial_id').onRef('t.team_id', '=', 'p.team_id'),
    )
    .innerJoin('teams as tm', 'tm.id', 'p.team_id')
    .where('a.id', '=', accountId)
    .where('a.email_verified_at', 'is not', null)
    .where('d.authorization_status', '=', 'authorized');
}

export function sharedLinks(db: Db, accountId: number) {
  return sharedLinksQuery(db, accountId)
    .select(['d.id as link_id', 'd.provider', 'd.authorization_date', 't.trial_name', 'tm.team_name'])
    .orderBy('d.authorization_date', 'desc')
    .orderBy('d.id')
    .execute();
}

/** One of this account's shared links (undefined when it is not one of theirs, or not shared). */
export function findSharedLink(db: Db, accountId: number, linkId: number) {
  return sharedLinksQuery(db, accountId)
    .select(['d.id', 'd.provider', 'd.participant_id', 'd.team_id'])
    .where('d.id', '=', linkId)
    .executeTakeFirst();
}
