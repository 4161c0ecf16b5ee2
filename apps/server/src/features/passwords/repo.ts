import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export function findUserByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'is_active'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/** What a password check inside a session needs: the hash, and who to tell when the account locks. */
export function findPasswordHolder(db: Db, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'first_name', 'password_hash'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

export async function insertResetToken(
  db: Db,
  t: { tokenHash: string; userId: number; createdAt: Date; expiresAt: Date },
) {
  await db
    .insertInto('password_reset_tokens')
    .values({ token_hash: t.tokenHash, user_id: t.userId, created_at: t.createdAt, expires_at: t.expiresAt })
    .execute();
}

export function findResetToken(db: Db, tokenHash: string) {
  return db
    .selectFrom('password_reset_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks the token used; false when a concurrent request spent it first. */
export async function spendResetToken(db: Db, tokenHash: string, now: Date): Promise<boolean> {
  const used = await db
    .updateTable('password_reset_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

export async function setPasswordHash(db: Db, userId: number, passwordHash: string, now: Date) {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Sets the new password of a reset; returns the username (its lock is lifted with it). */
export async function resetPasswordHash(db: Db, userId: number, passwordHash: string, now: Date) {
  const { username } = await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', userId)
    .returning('username')
    .executeTakeFirstOrThrow();
  return username;
}
