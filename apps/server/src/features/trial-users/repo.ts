import { sql } from 'kysely';
import type { TeamScope, TrialScope } from '../../access/index.js';
import type { Db } from '../../db/database.js';

/** Active members of a team, by email. */
export function listTeamMembers(db: Db, { teamId }: TeamScope) {
  return db
    .selectFrom('team_memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'm.role'])
    .where('m.team_id', '=', teamId)
    .where('u.is_active', '=', true)
    .orderBy('u.email')
    .execute();
}

/** A trial's users in the order they were added. */
export function listTrialUsers(db: Db, { trialId }: TrialScope) {
  return db
    .selectFrom('trial_users as tu')
    .innerJoin('users as u', 'u.id', 'tu.user_id')
    .select(['u.id', 'u.email'])
    .where('tu.trial_id', '=', trialId)
    .orderBy('tu.added_at')
    .orderBy('u.id')
    .execute();
}

export function findTeamMemberByEmail(db: Db, { teamId }: TeamScope, email: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('team_memberships as m', 'm.user_id', 'u.id')
    .select(['u.id', 'u.email'])
    .where('m.team_id', '=', teamId)
    .where(sql<string>`lower(u.email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/** False when the user already is a trial user. */
export async function addTrialUser(db: Db, { trialId }: TrialScope, userId: number): Promise<boolean> {
  const inserted = await db
    .insertInto('trial_users')
    .values({ trial_id: trialId, user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return !!inserted;
}

/** False when the user was not a trial user. */
export async function removeTrialUser(db: Db, { trialId }: TrialScope, userId: number): Promise<boolean> {
  const removed = await db
    .deleteFrom('trial_users')
    .where('trial_id', '=', trialId)
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst();
  return !!removed;
}
