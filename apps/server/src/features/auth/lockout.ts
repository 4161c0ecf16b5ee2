/*
 * Too many failed attempts (password or second-factor code) lock the account:
 * every session ends and sign-in is refused with ACCOUNT_LOCKED until a
 * Sys_Admin unlocks it (CLI unlock-user). Five consecutive failures, well
 * inside NIST 800-63B's ceiling of 100.
 */
import { ACCOUNT_LOCKED, SFA_MESSAGES } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { AppError } from '../../http/errors.js';
import { endAllSessions } from './session.js';

export const MAX_FAILED_ATTEMPTS = 5;

export const accountLocked = () =>
  new AppError(423, SFA_MESSAGES.locked, ACCOUNT_LOCKED, { displayToUser: true });

/** Counts one failure; locks the account at the limit. Returns true when this failure locked it. */
export async function recordFailedAttempt(
  ctx: AppContext,
  userId: number,
  kind: 'password' | 'sfa',
  ip: string | null,
) {
  const row = await ctx.db
    .updateTable('users')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', '=', userId)
    .returning(['failed_attempts', 'locked_at'])
    .executeTakeFirst();
  await recordAudit(ctx.db, {
    userId,
    teamId: null,
    action: `auth.${kind}.failed`,
    entityType: 'user',
    entityId: userId,
    ip,
  });
  if (row && row.failed_attempts >= MAX_FAILED_ATTEMPTS && !row.locked_at) {
    await ctx.db.updateTable('users').set({ locked_at: ctx.now() }).where('id', '=', userId).execute();
    await endAllSessions(ctx, userId);
    await recordAudit(ctx.db, {
      userId,
      teamId: null,
      action: 'auth.locked',
      entityType: 'user',
      entityId: userId,
      ip,
    });
    return true;
  }
  return false;
}

export async function clearFailedAttempts(ctx: AppContext, userId: number) {
  await ctx.db.updateTable('users').set({ failed_attempts: 0 }).where('id', '=', userId).execute();
}

export async function unlockUser(ctx: Pick<AppContext, 'db'>, userId: number) {
  await ctx.db
    .updateTable('users')
    .set({ failed_attempts: 0, locked_at: null })
    .where('id', '=', userId)
    .execute();
  await recordAudit(ctx.db, {
    userId: null,
    teamId: null,
    action: 'auth.unlocked',
    entityType: 'user',
    entityId: userId,
  });
}
