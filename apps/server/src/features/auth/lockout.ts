/*
 * Failed attempts (password or second-factor code) and the temporary,
 * escalating lock (issue #9).
 *
 * - Five consecutive failures lock the account: lock n lasts 15 minutes ×
 *   2^(n-1), at most 24 hours. A full sign-in, a password reset or an unlock
 *   (Sys_Admin page or CLI) forgets the failures and the locks.
 * - The state is kept per lower-case username in login_lockouts, also for
 *   names no account has, and both cases do the same work (the same password
 *   hash check, one row, one audit row): an unknown username answers exactly
 *   as a known one, locks after the same five failures and answers the same
 *   423 while "locked". Neither the lock nor its timing tells whether an
 *   account exists.
 * - While locked every attempt is refused with the lock message, also with
 *   the right password (no password oracle during the lock), and is not
 *   counted (an attacker cannot lengthen the lock).
 * - A lock reached at sign-in leaves the owner's open sessions alone (anybody
 *   can type five wrong passwords); a lock reached inside a session (wrong
 *   codes, wrong current password) ends every session of the user.
 * - The owner of a real account is emailed at each lock, with a reset link
 *   (a reset unlocks), after the answer has gone out.
 */
import { ACCOUNT_LOCKED, LOGIN_MESSAGES, PASSWORD_FLOW_MESSAGES, SFA_MESSAGES } from '@trialwear/contract';
import { AppError } from '../../access/errors.js';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { afterResponse } from '../../mail/after-response.js';
import { issueResetLink } from '../passwords/reset-link.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
import * as repo from './repo.js';
import { endAllSessions } from './session.js';

export const MAX_FAILED_ATTEMPTS = 5;
export const FIRST_LOCK_MS = 15 * 60 * 1000;
export const MAX_LOCK_MS = 24 * 60 * 60 * 1000;

/** How long the n-th lock (1-based) lasts. */
export function lockDuration(lockCount: number): number {
  return Math.min(FIRST_LOCK_MS * 2 ** Math.max(0, lockCount - 1), MAX_LOCK_MS);
}

/** The key of the lockout state: usernames are unique case-insensitively. */
export const usernameKey = (username: string) => username.trim().toLowerCase();

export const accountLocked = () =>
  new AppError(423, SFA_MESSAGES.locked, ACCOUNT_LOCKED, { displayToUser: true });

/** The account (when there is one) whose attempt failed: the lock mail goes to its owner. */
export interface AttemptAccount {
  id: number;
  username: string;
  email: string;
  first_name: string;
}

type Ctx = Pick<AppContext, 'db' | 'now' | 'config' | 'mailer'>;

/** Whether this username is locked now. */
export async function isLocked(ctx: Pick<AppContext, 'db' | 'now'>, key: string): Promise<boolean> {
  const row = await repo.findLockout(ctx.db, key);
  return !!row?.locked_until && new Date(row.locked_until).getTime() > ctx.now().getTime();
}

/** Refuses the call with ACCOUNT_LOCKED when the user's account is locked. */
export async function assertNotLocked(ctx: Pick<AppContext, 'db' | 'now'>, username: string) {
  if (await isLocked(ctx, usernameKey(username))) throw accountLocked();
}

/**
 * An attempt refused because the username is locked (right or wrong
 * password): audited, not counted.
 */
export async function recordLockedAttempt(
  ctx: Pick<AppContext, 'db'>,
  key: string,
  account: AttemptAccount | null,
  origin: { requestId: string | null; ip: string | null },
) {
  await recordAudit(ctx.db, {
    userId: account?.id ?? null,
    teamId: null,
    action: 'auth.login.refused',
    entityType: 'user',
    entityId: account?.id ?? null,
    after: { username: key, reason: 'locked' },
    requestId: origin.requestId,
    ip: origin.ip,
  });
}

export const invalidCredentials = () =>
  new AppError(401, LOGIN_MESSAGES.invalidCredentials, 'NotSignedIn', { displayToUser: true });

/**
 * The password step of a sign-in, staff and participant alike. The hash is
 * checked for an unknown username too (same work, same answer); a locked key
 * refuses with the lock message whatever the password (audited, not counted);
 * a wrong password or unknown username is counted and refused (the lock
 * message once it locks). Returns only for the right password of a known
 * account. `account` is the staff account the lock mail goes to, or null.
 */
export async function passwordStep(
  ctx: Ctx,
  origin: { requestId: string | null; ip: string | null },
  attempt: {
    key: string;
    /** The stored hash when the username is known, else undefined. */
    passwordHash: string | undefined;
    password: string;
    /** False when the username is unknown, or its account may not sign in (deactivated). */
    known: boolean;
    account: AttemptAccount | null;
  },
): Promise<void> {
  const { key, account } = attempt;
  const passwordOk = await verifyPassword(
    attempt.passwordHash ?? (await dummyPasswordHash()),
    attempt.password,
  );
  if (await isLocked(ctx, key)) {
    await recordLockedAttempt(ctx, key, account, origin);
    throw accountLocked();
  }
  if (!attempt.known || !passwordOk) {
    const locked = await recordFailedAttempt(ctx, {
      key,
      account,
      kind: 'password',
      origin,
      endSessionsOnLock: false,
    });
    throw locked ? accountLocked() : invalidCredentials();
  }
}

/**
 * Counts one failure of `key` (whether or not an account has it). Returns
 * true when the username is locked after it (locked by this failure or
 * already). Its own transaction, committed before the caller refuses the
 * attempt, so the count survives the error answer.
 */
export async function recordFailedAttempt(
  ctx: Ctx,
  attempt: {
    key: string;
    account: AttemptAccount | null;
    kind: 'password' | 'sfa';
    origin: { requestId: string | null; ip: string | null };
    /** End every session of the account when this failure locks it (failures inside a session). */
    endSessionsOnLock: boolean;
  },
): Promise<boolean> {
  const { key, account, origin } = attempt;
  const result = await inTransaction(ctx, async (tx): Promise<{ locked: boolean; newLock: Date | null }> => {
    const now = tx.now();
    const row = await repo.lockoutForUpdate(tx.db, key, now);
    const audit = (action: string, after: object) =>
      recordAudit(tx.db, {
        userId: account?.id ?? null,
        teamId: null,
        action,
        entityType: 'user',
        entityId: account?.id ?? null,
        after: { username: key, ...after },
        requestId: origin.requestId,
        ip: origin.ip,
      });
    if (row.locked_until && new Date(row.locked_until).getTime() > now.getTime()) {
      await audit(`auth.${attempt.kind}.failed`, { whileLocked: true });
      return { locked: true, newLock: null };
    }
    const failed = row.failed_attempts + 1;
    await audit(`auth.${attempt.kind}.failed`, { failedAttempts: failed });
    if (failed < MAX_FAILED_ATTEMPTS) {
      await repo.updateLockout(tx.db, key, {
        failed_attempts: failed,
        lock_count: row.lock_count,
        locked_until: null,
        last_failed_at: now,
      });
      return { locked: false, newLock: null };
    }
    const lockCount = row.lock_count + 1;
    const until = new Date(now.getTime() + lockDuration(lockCount));
    await repo.updateLockout(tx.db, key, {
      failed_attempts: 0,
      lock_count: lockCount,
      locked_until: until,
      last_failed_at: now,
    });
    await audit('auth.locked', { lockCount, lockedUntil: until.toISOString() });
    if (account && attempt.endSessionsOnLock) await endAllSessions(tx, account.id);
    return { locked: true, newLock: until };
  });
  const until = result.newLock;
  if (until && account) afterResponse('lockout mail', () => mailLockedOwner(ctx, account, until, origin));
  return result.locked;
}

async function mailLockedOwner(
  ctx: Ctx,
  account: AttemptAccount,
  until: Date,
  origin: { requestId: string | null; ip: string | null },
) {
  const link = await issueResetLink(ctx, account.id, 'locked', origin);
  await ctx.mailer.send({
    to: account.email,
    subject: 'Your TrialWear account was locked',
    text: [
      `Hello ${account.first_name},`,
      '',
      `Your TrialWear account (${account.username}) was locked after ${MAX_FAILED_ATTEMPTS} failed sign-in attempts.`,
      `It unlocks by itself at ${until.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
      '',
      'If this was not you, someone may be trying to guess your password. Resetting your password',
      'now also unlocks the account. Open this link within one hour to choose a new one:',
      '',
      link,
      '',
      'The link works once. Your administrator can also unlock the account.',
    ].join('\n'),
  });
}

/**
 * The current password asked inside a session (change password, reset the
 * second factor). A wrong one counts toward the lock and is refused with the
 * exact message; at the limit every session ends and the answer is
 * ACCOUNT_LOCKED.
 */
export async function requireCurrentPassword(
  ctx: Ctx,
  who: { requestId: string; ip: string },
  account: AttemptAccount & { password_hash: string },
  currentPassword: string,
) {
  if (await verifyPassword(account.password_hash, currentPassword)) return;
  const locked = await recordFailedAttempt(ctx, {
    key: usernameKey(account.username),
    account,
    kind: 'password',
    origin: who,
    endSessionsOnLock: true,
  });
  if (locked) throw accountLocked();
  throw new AppError(400, PASSWORD_FLOW_MESSAGES.wrongCurrent, 'ValidationError', {
    displayToUser: true,
    errors: [{ path: 'currentPassword', message: PASSWORD_FLOW_MESSAGES.wrongCurrent }],
  });
}

/** A full sign-in (password and, when required, the second factor): the failures and locks are forgotten. */
export async function clearFailedAttempts(ctx: Pick<AppContext, 'db'>, username: string) {
  await repo.deleteLockout(ctx.db, usernameKey(username));
}

/**
 * Lifts the lock and forgets the failures (CLI unlock-user, Sys_Admin
 * unlock), with its audit row. Returns false when the account was not locked.
 */
export async function unlockAccount(
  ctx: Pick<AppContext, 'db' | 'now'>,
  account: { id: number; username: string },
  by: { userId: number | null; teamId: number | null; requestId?: string | null; ip?: string | null },
): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const key = usernameKey(account.username);
    const wasLocked = await isLocked(tx, key);
    await repo.deleteLockout(tx.db, key);
    if (!wasLocked) return false;
    await recordAudit(tx.db, {
      userId: by.userId,
      teamId: by.teamId,
      action: 'auth.unlocked',
      entityType: 'user',
      entityId: account.id,
      requestId: by.requestId ?? null,
      ip: by.ip ?? null,
    });
    return true;
  });
}
