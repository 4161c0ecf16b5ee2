/*
 * The second factor (core §4): setup → verify (then log out) → later sign-ins
 * validate with the authenticator or an emailed code. Every wrong code counts
 * toward the account lock; a TOTP step is accepted once only.
 */
import { createHash, randomInt } from 'node:crypto';
import { type AuthStatus, SFA_MESSAGES } from '@trialwear/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { AppError } from '../../http/errors.js';
import { decryptSecret, encryptSecret } from '../../security/encryption.js';
import { accountLocked, clearFailedAttempts, recordFailedAttempt } from '../auth/lockout.js';
import { rememberDevice } from '../auth/remembered-device.js';
import * as authRepo from '../auth/repo.js';
import { buildSessionUser, endSession, type RequestAuth, setSessionStatus } from '../auth/session.js';
import { checkStep, generateTotpSecret, otpauthUrl } from './totp.js';

const EMAIL_CODE_TTL_MS = 10 * 60 * 1000;
const hashCode = (userId: number, code: string) =>
  createHash('sha256').update(`${userId}:${code}`).digest('hex');

const wrongStep = () =>
  new AppError(403, SFA_MESSAGES.alreadyValidated, 'Forbidden', { displayToUser: true });
const invalidCode = () =>
  new AppError(400, SFA_MESSAGES.invalidCode, 'ValidationError', { displayToUser: true });

async function loadUser(ctx: AppContext, auth: RequestAuth) {
  const user = await authRepo.findUserById(ctx.db, auth.user.id);
  if (!user) throw new AppError(401, 'Not signed in', 'NotSignedIn');
  if (user.locked_at) throw accountLocked();
  return user;
}

function audit(ctx: AppContext, request: FastifyRequest, userId: number, action: string) {
  return recordAudit(ctx.db, {
    userId,
    teamId: null,
    action,
    entityType: 'user',
    entityId: userId,
    requestId: request.id,
    ip: request.ip,
  });
}

/** A wrong code: count it; at the limit the account locks and the session ends. */
async function failed(ctx: AppContext, request: FastifyRequest, userId: number): Promise<never> {
  if (await recordFailedAttempt(ctx, userId, 'sfa', request.ip)) throw accountLocked();
  throw invalidCode();
}

export async function setupAuthenticator(ctx: AppContext, request: FastifyRequest) {
  const auth = request.auth!;
  if (auth.status !== 'SFAIsNotSet' && auth.status !== 'SFAVerifyCodeNeeded') throw wrongStep();
  const user = await loadUser(ctx, auth);
  const secret = generateTotpSecret();
  await ctx.db
    .updateTable('users')
    .set({
      sfa_secret_enc: encryptSecret(ctx.secrets.encryptionKey, secret),
      sfa_enabled: false,
      sfa_type: null,
      updated_at: ctx.now(),
    })
    .where('id', '=', user.id)
    .execute();
  await setSessionStatus(ctx, auth.sessionId, 'SFAVerifyCodeNeeded');
  await audit(ctx, request, user.id, 'sfa.setup');
  return { qrImage: await QRCode.toDataURL(otpauthUrl(secret, user.username)), key: secret };
}

/** First code after setup: turns the authenticator on, then signs out (core §4). */
export async function verifyAuthenticator(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  code: string,
) {
  const auth = request.auth!;
  if (auth.status !== 'SFAVerifyCodeNeeded') throw wrongStep();
  const user = await loadUser(ctx, auth);
  if (!user.sfa_secret_enc) throw wrongStep();
  const step = checkStep(code, decryptSecret(ctx.secrets.encryptionKey, user.sfa_secret_enc), ctx.now());
  if (step === null) return failed(ctx, request, user.id);
  await ctx.db
    .updateTable('users')
    .set({
      sfa_enabled: true,
      sfa_type: 'totp',
      sfa_last_totp_step: String(step),
      failed_attempts: 0,
      updated_at: ctx.now(),
    })
    .where('id', '=', user.id)
    .execute();
  await audit(ctx, request, user.id, 'sfa.verified');
  await endSession(ctx, request, reply);
  return { success: true, message: 'Your authenticator is set up. Please log in again.' };
}

/** Sign-in with the authenticator code or an emailed code; skipSFA remembers the device for 48 h. */
export async function validateSecondFactor(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  code: string,
  skipSFA: boolean,
) {
  const auth = request.auth!;
  if (auth.status !== 'SFAValidateCodeNeeded' && auth.status !== 'SFAValidateEmailCodeNeeded')
    throw wrongStep();
  const user = await loadUser(ctx, auth);
  const now = ctx.now();
  let ok = false;
  if (user.sfa_enabled && user.sfa_secret_enc) {
    const step = checkStep(code, decryptSecret(ctx.secrets.encryptionKey, user.sfa_secret_enc), now);
    // Atomic check-and-set: the same step is never accepted twice, even by two requests at once.
    if (step !== null) {
      const updated = await ctx.db
        .updateTable('users')
        .set({ sfa_last_totp_step: String(step) })
        .where('id', '=', user.id)
        .where((eb) =>
          eb.or([eb('sfa_last_totp_step', 'is', null), eb('sfa_last_totp_step', '<', String(step))]),
        )
        .executeTakeFirst();
      ok = Number(updated.numUpdatedRows) === 1;
      if (!ok) await audit(ctx, request, user.id, 'sfa.totp.replay');
    }
  }
  if (!ok) {
    const used = await ctx.db
      .updateTable('email_sfa_codes')
      .set({ used_at: now })
      .where('user_id', '=', user.id)
      .where('code_hash', '=', hashCode(user.id, code))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('id')
      .executeTakeFirst();
    ok = !!used;
  }
  if (!ok) return failed(ctx, request, user.id);
  await clearFailedAttempts(ctx, user.id);
  await setSessionStatus(ctx, auth.sessionId, 'Authorized');
  if (skipSFA) await rememberDevice(ctx, reply, user.id);
  await audit(ctx, request, user.id, 'sfa.validated');
  const { sessionUser } = await buildSessionUser(ctx, user, auth.teamId);
  return { message: 'Authorized' as AuthStatus, user: sessionUser };
}

export async function sendEmailCode(ctx: AppContext, request: FastifyRequest) {
  const auth = request.auth!;
  if (auth.status !== 'SFAValidateCodeNeeded' && auth.status !== 'SFAValidateEmailCodeNeeded')
    throw wrongStep();
  const user = await loadUser(ctx, auth);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = ctx.now();
  // One live code at a time: a new one replaces the old.
  await ctx.db
    .updateTable('email_sfa_codes')
    .set({ used_at: now })
    .where('user_id', '=', user.id)
    .where('used_at', 'is', null)
    .execute();
  await ctx.db
    .insertInto('email_sfa_codes')
    .values({
      user_id: user.id,
      code_hash: hashCode(user.id, code),
      created_at: now,
      expires_at: new Date(now.getTime() + EMAIL_CODE_TTL_MS),
    })
    .execute();
  try {
    await ctx.mailer.send({
      to: user.email,
      subject: 'Your TrialWear sign-in code',
      text: [
        `Hello ${user.first_name},`,
        '',
        `Your TrialWear sign-in code is: ${code}`,
        '',
        'It works once and expires in 10 minutes. If you did not try to sign in, change your password and tell your administrator.',
      ].join('\n'),
    });
  } catch {
    throw new AppError(502, SFA_MESSAGES.sendFailed, 'MailError', { displayToUser: true });
  }
  await setSessionStatus(ctx, auth.sessionId, 'SFAValidateEmailCodeNeeded');
  await audit(ctx, request, user.id, 'sfa.email.sent');
  return { success: true, message: SFA_MESSAGES.codeSent };
}

/**
 * Back to SFAIsNotSet. Allowed to a fully signed-in user (new phone) and
 * during setup; NOT while a validation is pending, or a stolen password
 * alone could replace the authenticator.
 */
export async function resetSecondFactor(ctx: AppContext, request: FastifyRequest) {
  const auth = request.auth!;
  if (auth.status === 'SFAValidateCodeNeeded' || auth.status === 'SFAValidateEmailCodeNeeded')
    throw wrongStep();
  const user = await loadUser(ctx, auth);
  await ctx.db
    .updateTable('users')
    .set({
      sfa_enabled: false,
      sfa_type: null,
      sfa_secret_enc: null,
      sfa_last_totp_step: null,
      updated_at: ctx.now(),
    })
    .where('id', '=', user.id)
    .execute();
  await ctx.db.deleteFrom('remembered_devices').where('user_id', '=', user.id).execute();
  // An account without a required second factor stays signed in; the others set one up next.
  const status: AuthStatus = user.sfa_required ? 'SFAIsNotSet' : 'Authorized';
  await setSessionStatus(ctx, auth.sessionId, status);
  await audit(ctx, request, user.id, 'sfa.reset');
  return { message: status };
}
