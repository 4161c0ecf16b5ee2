import { type AuthStatus, LOGIN_MESSAGES, type SessionUser } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../http/errors.js';
import type { RequestOrigin } from '../../http/session-identity.js';
import { requireRecaptcha } from '../../security/recaptcha.js';
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

/**
 * Password sign-in. Returns the new session's token (the route sets the
 * cookie) with the answer. A wrong password is counted in its own
 * transaction before the refusal; a successful sign-in records its session
 * and audit row together.
 */
export async function login(
  ctx: AppContext,
  origin: RequestOrigin,
  input: { username: string; password: string; recaptchaResponse: string },
  deviceCookie: string | undefined,
): Promise<{ sessionToken: string; answer: { message: AuthStatus; user: SessionUser } }> {
  await requireRecaptcha(ctx.recaptcha, input.recaptchaResponse, origin.ip);
  const user = await repo.findUserByUsername(ctx.db, input.username);
  const passwordOk = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password);
  if (user?.locked_at) throw accountLocked();
  if (!user || !passwordOk || !user.is_active) {
    if (user && !passwordOk && (await recordFailedAttempt(ctx, user.id, 'password', origin.ip)))
      throw accountLocked();
    throw new AppError(401, LOGIN_MESSAGES.invalidCredentials, 'NotSignedIn', { displayToUser: true });
  }
  const teamId = await repo.findLandingTeamId(ctx.db, user.id, user.last_selected_team_id);
  let status = statusAfterPassword(user);
  // A device remembered after a second-factor check skips the next one for 48 hours.
  if (status !== 'Authorized' && user.sfa_enabled && (await isRememberedDevice(ctx, deviceCookie, user.id)))
    status = 'Authorized';
  const sessionToken = await inTransaction(ctx, async (tx) => {
    if (status === 'Authorized') await clearFailedAttempts(tx, user.id);
    await recordAudit(tx.db, {
      userId: user.id,
      teamId,
      action: 'auth.login',
      entityType: 'user',
      entityId: user.id,
      after: { status },
      requestId: origin.requestId,
      ip: origin.ip,
    });
    return startSession(tx, origin, {
      userId: user.id,
      teamId,
      status,
      tokenVersion: user.token_version,
    });
  });
  const { sessionUser } = await buildSessionUser(ctx, user, teamId);
  return { sessionToken, answer: { message: status, user: sessionUser } };
}
