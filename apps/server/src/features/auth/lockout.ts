/*
 * Too many failed attempts (password or second-factor code) lock the account:
 * every session ends and sign-in is refused with ACCOUNT_LOCKED until a
 * Sys_Admin unlocks it (CLI unlock-user). Five consecutive failures, well
 * inside NIST 800-63B's ceiling of 100.
 */
import { ACCOUNT_LOCKED, SFA_MESSAGES } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../http/errors.js';
import * as repo from './repo.js';
import { endAllSessions } from './session.js';

export const MAX_FAILED_ATTEMPTS = 5;

export const accountLocked = () =>
  new AppError(423, SFA_MESSAGES.locked, ACCOUNT_LOCKED, { displayToUser: true });

/**
 * Counts one failure; locks the account at the limit. Returns true when this
 * failure locked it. Its own transaction, committed before the caller
 * refuses the attempt, so the count survives the error answer.
 */
export async function recordFailedAttempt(
  ctx: Pick<AppContext, 'db' | 'now'>,
  userId: number,
  kind: 'password' | 'sfa',
  ip: string | null,
) {
  return inTransaction(ctx, async (tx) => {
    const row = await repo.addFailedAttempt(tx.db, userId);
    await recordAudit(tx.db, {
      userId,
      teamId: null,
      action: `auth.${kind}.failed`,
      entityType: 'user',
      entityId: userId,
      ip,
    });
    if (!row || row.failed_attempts < MAX_FAILED_ATTEMPTS || row.locked_at) return false;
    await repo.lockUser(tx.db, userId, tx.now());
    await endAllSessions(tx, userId);
    await recordAudit(tx.db, {
      userId,
      teamId: null,
      action: 'auth.locked',
      entityType: 'user',
      entityId: userId,
      ip,
    });
    return true;
  });
}

export async function clearFailedAttempts(ctx: Pick<AppContext, 'db'>, userId: number) {
  await repo.clearFailedAttempts(ctx.db, userId);
}

export async function unlockUser(ctx: Pick<AppContext, 'db'>, userId: number) {
  await inTransaction(ctx, async (tx) => {
    await repo.unlockUser(tx.db, userId);
    await recordAudit(tx.db, {
      userId: null,
      teamId: null,
      action: 'auth.unlocked',
      entityType: 'user',
      entityId: userId,
    });
  });
}
