/*
 * Forgot / reset / change password. A reset token is random, stored hashed,
 * valid 1 hour and works once. Reset and change end every session of the
 * user (token_version) and forget remembered devices.
 */
import { PASSWORD_FLOW_MESSAGES } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../http/errors.js';
import type { RequestOrigin, SessionIdentity } from '../../http/session-identity.js';
import { requireRecaptcha } from '../../security/recaptcha.js';
import { hashToken, newLinkToken } from '../../security/tokens.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { forgetDevices } from '../auth/remembered-device.js';
import { endAllSessions } from '../auth/session.js';
import * as repo from './repo.js';

const RESET_TTL_MS = 60 * 60 * 1000;
const invalidLink = () =>
  new AppError(400, PASSWORD_FLOW_MESSAGES.resetLinkInvalid, 'ValidationError', { displayToUser: true });

export async function requestReset(
  ctx: AppContext,
  origin: RequestOrigin,
  email: string,
  recaptchaResponse: string,
) {
  await requireRecaptcha(ctx.recaptcha, recaptchaResponse, origin.ip);
  const user = await repo.findUserByEmail(ctx.db, email);
  // The same answer whether or not the address is known (no account enumeration).
  if (user?.is_active) {
    const { token, hash } = newLinkToken();
    const now = ctx.now();
    // The token and its audit row first, then the mail: no transaction is held open while mailing.
    await inTransaction(ctx, async (tx) => {
      await repo.insertResetToken(tx.db, {
        tokenHash: hash,
        userId: user.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + RESET_TTL_MS),
      });
      await recordAudit(tx.db, {
        userId: user.id,
        teamId: null,
        action: 'password.reset.requested',
        entityType: 'user',
        entityId: user.id,
        requestId: origin.requestId,
        ip: origin.ip,
      });
    });
    await ctx.mailer.send({
      to: user.email,
      subject: 'Reset your TrialWear password',
      text: [
        `Hello ${user.first_name},`,
        '',
        'Someone (hopefully you) asked to reset your TrialWear password. Open this link within one hour to choose a new one:',
        '',
        `${ctx.config.publicUrl}/ResetPasswordPage?token=${token}`,
        '',
        'The link works once. If you did not ask for it, ignore this email: your password stays as it is.',
      ].join('\n'),
    });
  }
  return { success: true, message: PASSWORD_FLOW_MESSAGES.resetRequested };
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
    await repo.resetPasswordHash(tx.db, row.user_id, passwordHash, tx.now());
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

/** Ends every session of the user, this one included: the route clears its cookie. */
export async function changePassword(
  ctx: AppContext,
  who: SessionIdentity,
  currentPassword: string,
  newPassword: string,
) {
  const user = await repo.findPasswordHash(ctx.db, who.userId);
  if (!(await verifyPassword(user.password_hash, currentPassword))) {
    throw new AppError(400, PASSWORD_FLOW_MESSAGES.wrongCurrent, 'ValidationError', {
      displayToUser: true,
      errors: [{ path: 'currentPassword', message: PASSWORD_FLOW_MESSAGES.wrongCurrent }],
    });
  }
  const passwordHash = await hashPassword(newPassword);
  await inTransaction(ctx, async (tx) => {
    await repo.setPasswordHash(tx.db, who.userId, passwordHash, tx.now());
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
