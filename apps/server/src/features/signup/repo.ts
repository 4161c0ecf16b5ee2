import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export function findTeam(db: Db, teamId: number) {
  return db.selectFrom('teams').select(['id', 'team_name']).where('id', '=', teamId).executeTakeFirst();
}

export async function insertInvitation(
  db: Db,
  i: {
    tokenHash: string;
    email: string;
    role: 'Viewer' | 'User' | 'Admin';
    teamId: number;
    approvedBy: number;
    createdAt: Date;
    expiresAt: Date;
  },
) {
  await db
    .insertInto('signup_invitations')
    .values({
      token_hash: i.tokenHash,
      email: i.email,
      role: i.role,
      team_id: i.teamId,
      approved_by: i.approvedBy,
      created_at: i.createdAt,
      expires_at: i.expiresAt,
    })
    .execute();
}

/** The invitation with its team's name. */
export function findInvitation(db: Db, tokenHash: string) {
  return db
    .selectFrom('signup_invitations as i')
    .innerJoin('teams as t', 't.id', 'i.team_id')
    .select(['i.token_hash', 'i.email', 'i.role', 'i.team_id', 't.team_name', 'i.used_at', 'i.expires_at'])
    .where('i.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks the invitation used; false when a concurrent request spent it first. */
export async function spendInvitation(db: Db, tokenHash: string, now: Date): Promise<boolean> {
  const spent = await db
    .updateTable('signup_invitations')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1;
}

export async function setInvitationUser(db: Db, tokenHash: string, userId: number) {
  await db
    .updateTable('signup_invitations')
    .set({ used_by: userId })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/** The participant account holding this email or this username (email first), if any. */
export async function findParticipantAccountClash(db: Db, username: string, email: string) {
  const rows = await db
    .selectFrom('participant_accounts')
    .select(['id', 'username', sql<boolean>`lower(email) = ${email.toLowerCase()}`.as('emailTaken')])
    .where((eb) =>
      eb.or([
        eb(sql<string>`lower(username)`, '=', username.toLowerCase()),
        eb(sql<string>`lower(email)`, '=', email.toLowerCase()),
      ]),
    )
    .execute();
  return rows.find((r) => r.emailTaken) ?? rows[0];
}

/** Inserts the account unless its username or email is taken (then null). */
export async function insertParticipantAccountIfFree(
  db: Db,
  a: { username: string; email: string; passwordHash: string; verifyTokenHash: string },
): Promise<number | null> {
  const row = await db
    .insertInto('participant_accounts')
    .values({
      username: a.username,
      email: a.email,
      password_hash: a.passwordHash,
      email_verify_token_hash: a.verifyTokenHash,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}
