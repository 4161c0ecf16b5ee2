import { type AuthStatus, SESSION_MESSAGES, type SessionUser } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import type { RequestOrigin, SessionIdentity } from '../../http/session-identity.js';
import { requireRecaptcha } from '../../security/recaptcha.js';
import { clearFailedAttempts, passwordStep, usernameKey } from './lockout.js';
import { forgetDevices, isRememberedDevice } from './remembered-device.js';
import * as repo from './repo.js';
import { buildSessionUser, endAllSessions, endSession, startSession } from './session.js';

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
 * cookie) with the answer. A known and an unknown username take the same
 * path, with the same work (see lockout.ts): a wrong password is counted in
 * its own transaction before the refusal; a successful sign-in records its
 * session and audit row together.
 */
export async function login(
  ctx: AppContext,
  origin: RequestOrigin,
  input: { username: string; password: string; recaptchaResponse: string },
  deviceCookie: string | undefined,
): Promise<{ sessionToken: string; answer: { message: AuthStatus; user: SessionUser } }> {
  await requireRecaptcha(ctx.recaptcha, input.recaptchaResponse, origin.ip);
  const key = usernameKey(input.username);
  const found = await repo.findUserByUsername(ctx.db, input.username);
  // A deactivated account is, for sign-in, an unknown username.
  const user = found?.is_active ? found : undefined;
  await passwordStep(ctx, origin, {
    key,
    passwordHash: found?.password_hash,
    password: input.password,
    known: !!user,
    account: user ?? null,
  });
  if (!user) throw new Error('unreachable: passwordStep refuses an unknown username');
  const teamId = await repo.findLandingTeamId(ctx.db, user.id, user.last_selected_team_id);
  let status = statusAfterPassword(user);
  // A device remembered after a second-factor check skips the next one for 48 hours.
  if (status !== 'Authorized' && user.sfa_enabled && (await isRememberedDevice(ctx, deviceCookie, user.id)))
    status = 'Authorized';
  const sessionToken = await inTransaction(ctx, async (tx) => {
    // Only a full sign-in clears the failures: a password alone must not reset the count of wrong codes.
    if (status === 'Authorized') await clearFailedAttempts(tx, user.username);
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

/** Plain logout: ends this session only (logoutEverywhere ends them all). */
export async function logout(ctx: AppContext, origin: RequestOrigin) {
  if (!origin.sessionId) return;
  const sessionId = origin.sessionId;
  await inTransaction(ctx, async (tx) => {
    await endSession(tx, sessionId);
    if (origin.userId !== null)
      await recordAudit(tx.db, {
        userId: origin.userId,
        teamId: null,
        action: 'auth.logout',
        entityType: 'user',
        entityId: origin.userId,
        requestId: origin.requestId,
        ip: origin.ip,
      });
  });
}

/**
 * Log out everywhere: every session of the user ends (token_version), this
 * one included, and remembered devices are forgotten, so a lost or shared
 * browser needs the second factor again.
 */
export async function logoutEverywhere(ctx: AppContext, who: SessionIdentity) {
  await inTransaction(ctx, async (tx) => {
    await endAllSessions(tx, who.userId);
    await forgetDevices(tx, who.userId);
    await recordAudit(tx.db, {
      userId: who.userId,
      teamId: who.teamId,
      action: 'auth.logout.everywhere',
      entityType: 'user',
      entityId: who.userId,
      requestId: who.requestId,
      ip: who.ip,
    });
  });
  return { success: true, message: SESSION_MESSAGES.loggedOutEverywhere };
}
