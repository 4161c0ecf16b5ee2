/*
 * Forgot / reset / change password. A reset token is random, stored hashed,
 * valid 1 hour and works once. Reset and change end every session of the
 * user (token_version) and forget remembered devices.
 */
import { PASSWORD_FLOW_MESSAGES } from '@trialwear/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { AppError } from '../../http/errors.js';
import { hashToken, newLinkToken } from '../../security/tokens.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { forgetDevices } from '../auth/remembered-device.js';
import { endAllSessions, endSession } from '../auth/session.js';

const RESET_TTL_MS = 60 * 60 * 1000;
const invalidLink = () =>
  new AppError(400, PASSWORD_FLOW_MESSAGES.resetLinkInvalid, 'ValidationError', { displayToUser: true });

export async function requestReset(
  ctx: AppContext,
  request: FastifyRequest,
  email: string,
  recaptchaResponse: string,
) {
  if (!(await ctx.recaptcha.verify(recaptchaResponse, request.ip))) {
    throw new AppError(400, 'reCAPTCHA verification failed', 'RecaptchaFailed', { displayToUser: true });
  }
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'is_active'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  // The same answer whether or not the address is known (no account enumeration).
  if (user?.is_active) {
    const { token, hash } = newLinkToken();
    const now = ctx.now();
    await ctx.db
      .insertInto('password_reset_tokens')
      .values({
        token_hash: hash,
        user_id: user.id,
        created_at: now,
        expires_at: new Date(now.getTime() + RESET_TTL_MS),
      })
      .execute();
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
    await recordAudit(ctx.db, {
      userId: user.id,
      teamId: null,
      action: 'password.reset.requested',
      entityType: 'user',
      entityId: user.id,
      requestId: request.id,
      ip: request.ip,
    });
  }
  return { success: true, message: PASSWORD_FLOW_MESSAGES.resetRequested };
}

async function liveToken(ctx: AppContext, token: string) {
  const row = await ctx.db
    .selectFrom('password_reset_tokens')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.used_at || new Date(row.expires_at).getTime() <= ctx.now().getTime()) throw invalidLink();
  return row;
}

export async function validateResetToken(ctx: AppContext, token: string) {
  const row = await liveToken(ctx, token);
  return { userId: row.user_id };
}

export async function resetPassword(
  ctx: AppContext,
  request: FastifyRequest,
  token: string,
  newPassword: string,
) {
  const row = await liveToken(ctx, token);
  const passwordHash = await hashPassword(newPassword);
  const used = await ctx.db
    .updateTable('password_reset_tokens')
    .set({ used_at: ctx.now() })
    .where('token_hash', '=', row.token_hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw invalidLink(); // spent by a concurrent request
  await ctx.db
    .updateTable('users')
    .set({ password_hash: passwordHash, failed_attempts: 0, locked_at: null, updated_at: ctx.now() })
    .where('id', '=', row.user_id)
    .execute();
  await endAllSessions(ctx, row.user_id);
  await forgetDevices(ctx, row.user_id);
  await recordAudit(ctx.db, {
    userId: row.user_id,
    teamId: null,
    action: 'password.reset',
    entityType: 'user',
    entityId: row.user_id,
    requestId: request.id,
    ip: request.ip,
  });
  return { success: true, message: PASSWORD_FLOW_MESSAGES.newPasswordSet };
}

export async function changePassword(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  currentPassword: string,
  newPassword: string,
) {
  const userId = request.auth!.user.id;
  const user = await ctx.db
    .selectFrom('users')
    .select(['password_hash'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (!(await verifyPassword(user.password_hash, currentPassword))) {
    throw new AppError(400, PASSWORD_FLOW_MESSAGES.wrongCurrent, 'ValidationError', {
      displayToUser: true,
      errors: [{ path: 'currentPassword', message: PASSWORD_FLOW_MESSAGES.wrongCurrent }],
    });
  }
  await ctx.db
    .updateTable('users')
    .set({ password_hash: await hashPassword(newPassword), updated_at: ctx.now() })
    .where('id', '=', userId)
    .execute();
  await endAllSessions(ctx, userId);
  await forgetDevices(ctx, userId);
  await endSession(ctx, request, reply);
  await recordAudit(ctx.db, {
    userId,
    teamId: request.auth!.teamId,
    action: 'password.changed',
    entityType: 'user',
    entityId: userId,
    requestId: request.id,
    ip: request.ip,
  });
  return { success: true, message: PASSWORD_FLOW_MESSAGES.newPasswordSet };
}
