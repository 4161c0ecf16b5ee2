import { type AuthStatus, LOGIN_MESSAGES, type SessionUser } from '@trialwear/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { AppError } from '../../http/errors.js';
import { accountLocked, clearFailedAttempts, recordFailedAttempt } from './lockout.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
import { isRememberedDevice } from './remembered-device.js';
import * as repo from './repo.js';
import { buildSessionUser, startSession } from './session.js';

/** The status a correct password leads to (spec core §4). */
export function statusAfterPassword(user: {
  sfa_required: boolean;
  sfa_enabled: boolean;
  sfa_type: string | null;
  sfa_secret_enc: string | null;
}): AuthStatus {
  if (!user.sfa_required) return 'Authorized';
  if (user.sfa_type === 'email') return 'SFAValidateEmailCodeNeeded';
  if (user.sfa_enabled) return 'SFAValidateCodeNeeded';
  if (user.sfa_secret_enc) return 'SFAVerifyCodeNeeded';
  return 'SFAIsNotSet';
}

export async function login(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { username: string; password: string; recaptchaResponse: string },
): Promise<{ message: AuthStatus; user: SessionUser }> {
  if (!(await ctx.recaptcha.verify(input.recaptchaResponse, request.ip))) {
    throw new AppError(400, 'reCAPTCHA verification failed', 'RecaptchaFailed', { displayToUser: true });
  }
  const user = await repo.findUserByUsername(ctx.db, input.username);
  const passwordOk = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password);
  if (user?.locked_at) throw accountLocked();
  if (!user || !passwordOk || !user.is_active) {
    if (user && !passwordOk && (await recordFailedAttempt(ctx, user.id, 'password', request.ip)))
      throw accountLocked();
    throw new AppError(401, LOGIN_MESSAGES.invalidCredentials, 'NotSignedIn', { displayToUser: true });
  }
  const teamId = await repo.findLandingTeamId(ctx.db, user.id, user.last_selected_team_id);
  let status = statusAfterPassword(user);
  // A device remembered after a second-factor check skips the next one for 48 hours.
  if (status !== 'Authorized' && user.sfa_enabled && (await isRememberedDevice(ctx, request, user.id)))
    status = 'Authorized';
  if (status === 'Authorized') await clearFailedAttempts(ctx, user.id);
  await recordAudit(ctx.db, {
    userId: user.id,
    teamId,
    action: 'auth.login',
    entityType: 'user',
    entityId: user.id,
    after: { status },
    requestId: request.id,
    ip: request.ip,
  });
  await startSession(ctx, request, reply, {
    userId: user.id,
    teamId,
    status,
    tokenVersion: user.token_version,
  });
  const { sessionUser } = await buildSessionUser(ctx, user, teamId);
  return { message: status, user: sessionUser };
}
