/*
 * Forgot / reset / change password. A reset token is random, stored hashed,
 * valid 1 hour and works once (reset-link.ts). Reset and change end every
 * session of the user (token_version) and forget remembered devices; a reset
 * also lifts a lock.
 */
import { PASSWORD_FLOW_MESSAGES } from '@trialwear/contract';
import { AppError } from '../../access/errors.js';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import type { RequestOrigin, SessionIdentity } from '../../http/session-identity.js';
import { afterResponse } from '../../mail/after-response.js';
import { requireRecaptcha } from '../../security/recaptcha.js';
import { hashToken } from '../../security/tokens.js';
import { assertNotLocked, clearFailedAttempts, requireCurrentPassword } from '../auth/lockout.js';
import { hashPassword } from '../auth/passwords.js';
import { forgetDevices } from '../auth/remembered-device.js';
import { endAllSessions } from '../auth/session.js';
import * as repo from './repo.js';
import { issueResetLink } from './reset-link.js';

const invalidLink = () =>
  new AppError(400, PASSWORD_FLOW_MESSAGES.resetLinkInvalid, 'ValidationError', { displayToUser: true });

/**
 * The answer is the same, and as fast, whether or not the address is known
 * (no account enumeration): after the reCAPTCHA check everything, the
 * look-up included, runs after the answer has gone out.
 */
export async function requestReset(
  ctx: AppContext,
  origin: RequestOrigin,
  email: string,
  recaptchaResponse: string,
) {
  await requireRecaptcha(ctx.recaptcha, recaptchaResponse, origin.ip);
  afterResponse('password reset mail', () => mailResetLink(ctx, origin, email));
  return { success: true, message: PASSWORD_FLOW_MESSAGES.resetRequested };
}

async function mailResetLink(ctx: AppContext, origin: RequestOrigin, email: string) {
  const user = await repo.findUserByEmail(ctx.db, email);
  if (!user?.is_active) return;
  // The token and its audit row first, then the mail: no transaction is held open while mailing.
  const link = await issueResetLink(ctx, user.id, 'requested', origin);
  await ctx.mailer.send({
    to: user.email,
    subject: 'Reset your TrialWear password',
    text: [
      `Hello ${user.first_name},`,
      '',
      'Someone (hopefully you) asked to reset your TrialWear password. Open this link within one hour to choose a new one:',
      '',
      link,
      '',
      'The link works once. If you did not ask for it, ignore this email: your password stays as it is.',
    ].join('\n'),
  });
}

async function liveToken(ctx: Pick<AppContext, 'db' | 'now'>, token: string) {
  const row = await repo.findResetToken(ctx.db, hashToken(token));
  if (!row || row.used_at || new Date(row.expires_at).getTime() <= ctx.now().getTime()) throw invalidLink();
  return row;
}

export async function validateResetToken(ctx: AppContext, token: string) {
  const row = await liveToken(ctx, token);
  return { userId: row.user_id };
}

export async function resetPassword(
  ctx: AppContext,
  origin: RequestOrigin,
  token: string,
  newPassword: string,
) {
  const row = await liveToken(ctx, token);
  const passwordHash = await hashPassword(newPassword);
  await inTransaction(ctx, async (tx) => {
    if (!(await repo.spendResetToken(tx.db, row.token_hash, tx.now()))) throw invalidLink(); // spent by a concurrent request
    const username = await repo.resetPasswordHash(tx.db, row.user_id, passwordHash, tx.now());
    // Proving control of the email is what unlocking asks for: the lock and the failures are forgotten.
    await clearFailedAttempts(tx, username);
    await endAllSessions(tx, row.user_id);
    await forgetDevices(tx, row.user_id);
    await recordAudit(tx.db, {
      userId: row.user_id,
      teamId: null,
      action: 'password.reset',
      entityType: 'user',
      entityId: row.user_id,
      requestId: origin.requestId,
      ip: origin.ip,
    });
  });
  return { success: true, message: PASSWORD_FLOW_MESSAGES.newPasswordSet };
}

/**
 * Needs the current password; a wrong one counts toward the lock (at the
 * limit every session ends and the answer is ACCOUNT_LOCKED). Success ends
 * every session of the user, this one included: the route clears its cookie.
 */
export async function changePassword(
  ctx: AppContext,
  who: SessionIdentity,
  currentPassword: string,
  newPassword: string,
) {
  const user = await repo.findPasswordHolder(ctx.db, who.userId);
  await assertNotLocked(ctx, user.username);
  await requireCurrentPassword(ctx, who, user, currentPassword);
  const passwordHash = await hashPassword(newPassword);
  await inTransaction(ctx, async (tx) => {
    await repo.setPasswordHash(tx.db, who.userId, passwordHash, tx.now());
    await clearFailedAttempts(tx, user.username);
    await endAllSessions(tx, who.userId);
    await forgetDevices(tx, who.userId);
    await recordAudit(tx.db, {
      userId: who.userId,
      teamId: who.teamId,
      action: 'password.changed',
      entityType: 'user',
      entityId: who.userId,
      requestId: who.requestId,
      ip: who.ip,
    });
  });
  return { success: true, message: PASSWORD_FLOW_MESSAGES.newPasswordSet };
}
