import {
  CONTACT_MESSAGES,
  LOCKOUT_MESSAGES,
  type LockedUser,
  newPasswordSchema,
  type Role,
  roleSchema,
  SIGNUP_MESSAGES,
} from '@trialwear/contract';
import { z } from 'zod';
import type { Actor } from '../../access/actor.js';
import { AppError, notFound } from '../../access/errors.js';
import type { AppContext } from '../../app-context.js';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import { clearFailedAttempts, unlockAccount } from '../auth/lockout.js';
import { hashPassword } from '../auth/passwords.js';
import * as repo from './repo.js';

export const newUserSchema = z.object({
  username: z.string().trim().min(3, 'Username must be at least 3 characters').max(50),
  email: z.email(CONTACT_MESSAGES.emailInvalid),
  password: newPasswordSchema,
  firstName: z.string().trim().min(1, SIGNUP_MESSAGES.firstNameRequired),
  lastName: z.string().trim().min(1, SIGNUP_MESSAGES.lastNameRequired),
  organization: z.string().optional(),
  teamId: z.number().int(),
  role: roleSchema,
  sfaRequired: z.boolean().default(true),
});
export type NewUser = z.input<typeof newUserSchema>;

/** A valid new user with the password hashed, ready for insertUser. */
export interface PreparedUser extends Omit<z.output<typeof newUserSchema>, 'password'> {
  passwordHash: string;
}

/** Validates and hashes (slow on purpose) before any transaction is opened. */
export async function prepareUser(input: NewUser): Promise<PreparedUser> {
  const { password, ...u } = newUserSchema.parse(input);
  return { ...u, passwordHash: await hashPassword(password) };
}

/** Inserts the user with their default team membership (join a transaction: see createUser). */
export async function insertUser(db: Db, u: PreparedUser): Promise<number> {
  return inTransaction({ db }, async ({ db: trx }) => {
    const clash = await repo.findUserClash(trx, u.username, u.email);
    if (clash) {
      const what = clash.username.toLowerCase() === u.username.toLowerCase() ? 'username' : 'email';
      throw new AppError(409, `A user with this ${what} already exists`, 'Conflict', { displayToUser: true });
    }
    const id = await repo.insertUser(trx, {
      username: u.username,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      organization: u.organization ?? null,
      passwordHash: u.passwordHash,
      sfaRequired: u.sfaRequired,
      lastSelectedTeamId: u.teamId,
    });
    await repo.insertDefaultMembership(trx, id, u.teamId, u.role);
    // Failures counted for this name while it had no account (lockout.ts) do not follow the new account.
    await clearFailedAttempts({ db: trx }, u.username);
    return id;
  });
}

export async function createUser(db: Db, input: NewUser): Promise<number> {
  return insertUser(db, await prepareUser(input));
}

export async function findUserIdByUsername(db: Db, username: string): Promise<number> {
  const user = await repo.findUserIdByUsername(db, username);
  if (!user) throw new AppError(404, `No user named "${username}"`, 'NotFound', { displayToUser: true });
  return user.id;
}

/** Adds (or changes) the user's role in a team. */
export async function addMembership(db: Db, userId: number, teamId: number, role: Role) {
  await repo.upsertMembership(db, userId, teamId, role);
}

export async function setSfaRequired(db: Db, userId: number, sfaRequired: boolean) {
  await repo.setSfaRequired(db, userId, sfaRequired);
}

export function hasAnyUser(db: Db): Promise<boolean> {
  return repo.anyUserExists(db);
}

/** Locked accounts of the teams the Sys_Admin administers (GET /api/users/locked). */
export async function listLockedUsers(ctx: AppContext, actor: Actor): Promise<LockedUser[]> {
  const rows = await repo.findLockedUsers(ctx.db, actor.userId, ctx.now());
  return rows.map((r) => ({
    id: r.id,
    userName: r.username,
    email: r.email,
    first_name: r.first_name,
    last_name: r.last_name,
    locked_until: new Date(r.locked_until!).toISOString(),
    lock_count: r.lock_count,
    teams: r.teams,
  }));
}

/**
 * Unlock by a Sys_Admin (POST /api/users/:userId/unlock), audited with the
 * admin as actor. Another team's user is a 404; an account that is not
 * locked is a 409.
 */
export async function unlockUserAccount(ctx: AppContext, actor: Actor, userId: number) {
  const user = await repo.findUserInAdminTeams(ctx.db, actor.userId, userId);
  if (!user) throw notFound('User not found');
  const unlocked = await unlockAccount(ctx, user, actor);
  if (!unlocked) throw new AppError(409, LOCKOUT_MESSAGES.notLocked, 'Conflict', { displayToUser: true });
  return { success: true, message: LOCKOUT_MESSAGES.unlocked };
}

/** CLI unlock-user: lifts the lock and forgets the failures. */
export async function unlockUserByCli(db: Db, userId: number) {
  const user = await repo.findUsername(db, userId);
  if (!user) throw notFound('User not found');
  await unlockAccount({ db, now: () => new Date() }, user, { userId: null, teamId: null });
}
