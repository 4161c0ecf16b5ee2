import type { Role } from '@trialwear/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** A user holding this username or this email (both compared case-insensitively). */
export function findUserClash(db: Db, username: string, email: string) {
  return db
    .selectFrom('users')
    .select(['username', 'email'])
    .where((eb) =>
      eb.or([
        eb(sql<string>`lower(username)`, '=', username.toLowerCase()),
        eb(sql<string>`lower(email)`, '=', email.toLowerCase()),
      ]),
    )
    .executeTakeFirst();
}

export async function insertUser(
  db: Db,
  u: {
    username: string;
    email: string;
    firstName: string;
    lastName: string;
    organization: string | null;
    passwordHash: string;
    sfaRequired: boolean;
    lastSelectedTeamId: number;
  },
) {
  const { id } = await db
    .insertInto('users')
    .values({
      username: u.username,
      email: u.email,
      first_name: u.firstName,
      last_name: u.lastName,
      organization: u.organization,
      password_hash: u.passwordHash,
      sfa_required: u.sfaRequired,
      last_selected_team_id: u.lastSelectedTeamId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function insertDefaultMembership(db: Db, userId: number, teamId: number, role: Role) {
  await db
    .insertInto('team_memberships')
    .values({ user_id: userId, team_id: teamId, role, default_team: true })
    .execute();
}

/** Adds the membership, or changes the role of an existing one. */
export async function upsertMembership(db: Db, userId: number, teamId: number, role: Role) {
  await db
    .insertInto('team_memberships')
    .values({ user_id: userId, team_id: teamId, role })
    .onConflict((oc) => oc.columns(['user_id', 'team_id']).doUpdateSet({ role }))
    .execute();
}

export function findUserIdByUsername(db: Db, username: string) {
  return db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export async function setSfaRequired(db: Db, userId: number, sfaRequired: boolean) {
  await db.updateTable('users').set({ sfa_required: sfaRequired }).where('id', '=', userId).execute();
}

export async function anyUserExists(db: Db) {
  return !!(await db.selectFrom('users').select('id').limit(1).executeTakeFirst());
}

/** The teams in which this user is Sys_Admin (the teams whose accounts they may unlock). */
const sysAdminTeamIds = (db: Db, adminUserId: number) =>
  db
    .selectFrom('team_memberships')
    .select('team_id')
    .where('user_id', '=', adminUserId)
    .where('role', '=', 'Sys_Admin');

/** Accounts locked now that belong to a team the admin administers, with those teams' names. */
export function findLockedUsers(db: Db, adminUserId: number, now: Date) {
  return db
    .selectFrom('users as u')
    .innerJoin('login_lockouts as l', (join) =>
      join.on('l.username_key', '=', sql<string>`lower(u.username)`),
    )
    .innerJoin('team_memberships as m', 'm.user_id', 'u.id')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select([
      'u.id',
      'u.username',
      'u.email',
      'u.first_name',
      'u.last_name',
      'l.locked_until',
      'l.lock_count',
      sql<string[]>`array_agg(t.team_name ORDER BY t.team_name)`.as('teams'),
    ])
    .where('l.locked_until', '>', now)
    .where('m.team_id', 'in', sysAdminTeamIds(db, adminUserId))
    .groupBy(['u.id', 'l.username_key'])
    .orderBy('l.locked_until', 'desc')
    .orderBy('u.id')
    .execute();
}

/** The user, when they belong to a team the admin administers. */
export function findUserInAdminTeams(db: Db, adminUserId: number, userId: number) {
  return db
    .selectFrom('users as u')
    .select(['u.id', 'u.username'])
    .where('u.id', '=', userId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('team_memberships as m')
          .select('m.user_id')
          .whereRef('m.user_id', '=', 'u.id')
          .where('m.team_id', 'in', sysAdminTeamIds(db, adminUserId)),
      ),
    )
    .executeTakeFirst();
}

export function findUsername(db: Db, userId: number) {
  return db.selectFrom('users').select(['id', 'username']).where('id', '=', userId).executeTakeFirst();
}

/** Where and how to greet a user in a mail: their address and first name. */
export function findMailRecipient(db: Db, userId: number) {
  return db.selectFrom('users').select(['email', 'first_name']).where('id', '=', userId).executeTakeFirst();
}
