import { type AuthStatus, LOGIN_MESSAGES, type SessionUser } from '@trialwear/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { AppError } from '../../http/errors.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
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
  if (!user || !passwordOk || !user.is_active) {
    throw new AppError(401, LOGIN_MESSAGES.invalidCredentials, 'NotSignedIn', { displayToUser: true });
  }
  const teamId = await repo.findLandingTeamId(ctx.db, user.id, user.last_selected_team_id);
  const status = statusAfterPassword(user);
  await startSession(ctx, request, reply, {
    userId: user.id,
    teamId,
    status,
    tokenVersion: user.token_version,
  });
  const { sessionUser } = await buildSessionUser(ctx, user, teamId);
  return { message: status, user: sessionUser };
}
