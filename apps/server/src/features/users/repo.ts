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
