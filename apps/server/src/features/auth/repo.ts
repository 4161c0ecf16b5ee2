import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

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
