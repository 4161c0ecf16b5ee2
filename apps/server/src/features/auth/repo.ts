import { sql } from 'kysely';
import { cachedQuery } from '../../db/cached-query.js';
import { type Db, PREPARED } from '../../db/database.js';

export function findUserByUsername(db: Db, username: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export function findUserById(db: Db, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user's membership in a team, with the team's fields needed for the session user. */
export function findMembership(db: Db, userId: number, teamId: number) {
  return db
    .selectFrom('team_memberships as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select([
      'm.team_id',
      'm.role',
      't.team_name',
      't.is_active',
      't.subscription_starts',
      't.subscription_ends',
    ])
    .where('m.user_id', '=', userId)
    .where('m.team_id', '=', teamId)
    .executeTakeFirst();
}

/** The team a user lands in: the last one selected, else the default, else the oldest membership. */
export async function findLandingTeamId(db: Db, userId: number, lastSelected: number | null) {
  const rows = await db
    .selectFrom('team_memberships')
    .select(['team_id', 'default_team'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('team_id')
    .execute();
  if (lastSelected !== null && rows.some((r) => r.team_id === lastSelected)) return lastSelected;
  return (rows.find((r) => r.default_team) ?? rows[0])?.team_id ?? null;
}

export interface NewSession {
  id: string;
  userId: number;
  teamId: number | null;
  authStatus: string;
  tokenVersion: number;
  createdAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
}

export async function insertSession(db: Db, s: NewSession) {
  await db
    .insertInto('sessions')
    .values({
      id: s.id,
      user_id: s.userId,
      team_id: s.teamId,
      auth_status: s.authStatus,
      token_version: s.tokenVersion,
      created_at: s.createdAt,
      refreshed_at: s.createdAt,
      expires_at: s.expiresAt,
      ip: s.ip,
      user_agent: s.userAgent,
    })
    .execute();
}

export function findSession(db: Db, id: string) {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * What a request's session cookie resolves to, in one query: the session,
 * its user and the user's membership (role) in the session's team with the
 * team's status fields and hidden participant fields. resolveAuth runs it on
 * every /api request.
 */
const sessionAuthQuery = cachedQuery((db, _shape: null, p: { id: string }) =>
  db
    .selectFrom('sessions as s')
    .modifyFront(PREPARED)
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('team_memberships as m', (join) =>
      join.onRef('m.user_id', '=', 's.user_id').onRef('m.team_id', '=', 's.team_id'),
    )
    .leftJoin('teams as t', 't.id', 'm.team_id')
    .select([
      's.auth_status',
      's.expires_at',
      's.token_version as session_token_version',
      'u.id',
      'u.username',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.is_active',
      'u.token_version',
      'm.team_id',
      'm.role',
      't.team_name',
      't.is_active as team_is_active',
      't.subscription_starts',
      't.subscription_ends',
      't.hidden_participant_fields',
    ])
    .where('s.id', '=', p.id),
);

export async function findSessionAuth(db: Db, id: string) {
  return (await sessionAuthQuery(db, null, { id }))[0];
}

export async function extendSession(db: Db, id: string, now: Date, expiresAt: Date) {
  await db
    .updateTable('sessions')
    .set({ refreshed_at: now, expires_at: expiresAt })
    .where('id', '=', id)
    .execute();
}

export async function deleteSession(db: Db, id: string) {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function setSessionStatus(db: Db, id: string, status: string) {
  await db.updateTable('sessions').set({ auth_status: status }).where('id', '=', id).execute();
}

export async function setSessionTeam(db: Db, id: string, teamId: number) {
  await db.updateTable('sessions').set({ team_id: teamId }).where('id', '=', id).execute();
}

/** Sessions hold the token_version they started with: bumping it ends them all. */
export async function bumpTokenVersion(db: Db, userId: number, now: Date) {
  await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1), updated_at: now }))
    .where('id', '=', userId)
    .execute();
}

export async function deleteUserSessions(db: Db, userId: number) {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/** The failure count and lock of a lower-case username (known or not). */
export function findLockout(db: Db, usernameKey: string) {
  return db
    .selectFrom('login_lockouts')
    .selectAll()
    .where('username_key', '=', usernameKey)
    .executeTakeFirst();
}

/** The row of a username, created if missing, locked for this transaction (concurrent failures count one by one). */
export async function lockoutForUpdate(db: Db, usernameKey: string, now: Date) {
  await db
    .insertInto('login_lockouts')
    .values({ username_key: usernameKey, last_failed_at: now })
    .onConflict((oc) => oc.column('username_key').doNothing())
    .execute();
  return db
    .selectFrom('login_lockouts')
    .selectAll()
    .where('username_key', '=', usernameKey)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function updateLockout(
  db: Db,
  usernameKey: string,
  set: { failed_attempts: number; lock_count: number; locked_until: Date | null; last_failed_at: Date },
) {
  await db.updateTable('login_lockouts').set(set).where('username_key', '=', usernameKey).execute();
}

/** Forgets the failures and any lock; true when there was something to forget. */
export async function deleteLockout(db: Db, usernameKey: string): Promise<boolean> {
  const r = await db.deleteFrom('login_lockouts').where('username_key', '=', usernameKey).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function insertRememberedDevice(
  db: Db,
  d: { id: string; userId: number; createdAt: Date; expiresAt: Date },
) {
  await db
    .insertInto('remembered_devices')
    .values({ id: d.id, user_id: d.userId, created_at: d.createdAt, expires_at: d.expiresAt })
    .execute();
}

export function findRememberedDevice(db: Db, id: string, userId: number) {
  return db
    .selectFrom('remembered_devices')
    .select('expires_at')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function deleteRememberedDevices(db: Db, userId: number) {
  await db.deleteFrom('remembered_devices').where('user_id', '=', userId).execute();
}
