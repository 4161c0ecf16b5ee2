/*
 * The second factor (core §4): setup → verify (then log out) → later sign-ins
 * validate with the authenticator or an emailed code. Every wrong code counts
 * toward the account lock; a TOTP step is accepted once only.
 */
import { createHash, randomInt } from 'node:crypto';
import { type AuthStatus, type SessionUser, SFA_MESSAGES, SFA_RESULT_MESSAGES } from '@trialwear/contract';
import QRCode from 'qrcode';
import { AppError } from '../../access/errors.js';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import type { SessionIdentity } from '../../http/session-identity.js';
import { afterResponse } from '../../mail/after-response.js';
import {
  decryptSecret,
  encryptSecret,
  type Keyring,
  UndecryptableSecret,
} from '../../security/encryption.js';
import {
  accountLocked,
  assertNotLocked,
  clearFailedAttempts,
  recordFailedAttempt,
  requireCurrentPassword,
  usernameKey,
} from '../auth/lockout.js';
import { forgetDevices, rememberDevice } from '../auth/remembered-device.js';
import * as authRepo from '../auth/repo.js';
import { buildSessionUser, endSession, setSessionStatus } from '../auth/session.js';
import * as repo from './repo.js';
import { checkStep, generateTotpSecret, otpauthUrl } from './totp.js';

const EMAIL_CODE_TTL_MS = 10 * 60 * 1000;
const hashCode = (userId: number, code: string) =>
  createHash('sha256').update(`${userId}:${code}`).digest('hex');

const wrongStep = () =>
  new AppError(403, SFA_MESSAGES.alreadyValidated, 'Forbidden', { displayToUser: true });
const invalidCode = () =>
  new AppError(400, SFA_MESSAGES.invalidCode, 'ValidationError', { displayToUser: true });
const validationPending = (status: AuthStatus) =>
  status === 'SFAValidateCodeNeeded' || status === 'SFAValidateEmailCodeNeeded';

async function loadUser(ctx: AppContext, who: SessionIdentity) {
  const user = await authRepo.findUserById(ctx.db, who.userId);
  if (!user) throw new AppError(401, 'Not signed in', 'NotSignedIn');
  await assertNotLocked(ctx, user.username);
  return user;
}

function audit(ctx: Pick<AppContext, 'db'>, who: SessionIdentity, action: string) {
  return recordAudit(ctx.db, {
    userId: who.userId,
    teamId: null,
    action,
    entityType: 'user',
    entityId: who.userId,
    requestId: who.requestId,
    ip: who.ip,
  });
}

type LoadedUser = Awaited<ReturnType<typeof loadUser>>;

/**
 * The user's TOTP seed, or null when no configured key opens it (a wrong or
 * rotated-away ENCRYPTION_KEY): logged with its cause, never a 500, nothing
 * changed; an emailed code still signs the user in meanwhile.
 */
function totpSecret(secrets: Keyring, user: { id: number; sfa_secret_enc: string }): string | null {
  try {
    return decryptSecret(secrets, user.sfa_secret_enc);
  } catch (err) {
    if (!(err instanceof UndecryptableSecret)) throw err;
    console.error(`[trialwear] the TOTP seed of user ${user.id} cannot be decrypted: ${err.message}`);
    return null;
  }
}

/** A wrong code: count it; at the limit the account locks, every session ends and the owner is emailed. */
async function failed(ctx: AppContext, who: SessionIdentity, user: LoadedUser): Promise<never> {
  const locked = await recordFailedAttempt(ctx, {
    key: usernameKey(user.username),
    account: user,
    kind: 'sfa',
    origin: who,
    endSessionsOnLock: true,
  });
  throw locked ? accountLocked() : invalidCode();
}

export async function setupAuthenticator(ctx: AppContext, who: SessionIdentity) {
  if (who.status !== 'SFAIsNotSet' && who.status !== 'SFAVerifyCodeNeeded') throw wrongStep();
  const user = await loadUser(ctx, who);
  const secret = generateTotpSecret();
  await inTransaction(ctx, async (tx) => {
    await repo.saveTotpSecret(tx.db, user.id, encryptSecret(tx.secrets.encryptionKey, secret), tx.now());
    await setSessionStatus(tx, who.sessionId, 'SFAVerifyCodeNeeded');
    await audit(tx, who, 'sfa.setup');
  });
  return { qrImage: await QRCode.toDataURL(otpauthUrl(secret, user.username)), key: secret };
}

/**
 * First code after setup: turns the authenticator on, then signs out (core §4):
 * the session ends here and the route clears its cookie.
 */
export async function verifyAuthenticator(ctx: AppContext, who: SessionIdentity, code: string) {
  if (who.status !== 'SFAVerifyCodeNeeded') throw wrongStep();
  const user = await loadUser(ctx, who);
  if (!user.sfa_secret_enc) throw wrongStep();
  const secret = totpSecret(ctx.secrets, { id: user.id, sfa_secret_enc: user.sfa_secret_enc });
  // Unreadable seed: no code can match, and it is not the user's failure (set the authenticator up again).
  if (secret === null) throw invalidCode();
  const step = checkStep(code, secret, ctx.now());
  if (step === null) return failed(ctx, who, user);
  await inTransaction(ctx, async (tx) => {
    await repo.enableTotp(tx.db, user.id, step, tx.now());
    await clearFailedAttempts(tx, user.username);
    await audit(tx, who, 'sfa.verified');
    await endSession(tx, who.sessionId);
  });
  return { success: true, message: SFA_RESULT_MESSAGES.authenticatorSet };
}

/**
 * Sign-in with the authenticator code or an emailed code. With skipSFA the
 * device is remembered for 48 h: the answer carries the cookie value for the
 * route to set.
 */
export async function validateSecondFactor(
  ctx: AppContext,
  who: SessionIdentity,
  code: string,
  skipSFA: boolean,
): Promise<{ answer: { message: AuthStatus; user: SessionUser }; deviceToken: string | null }> {
  if (!validationPending(who.status)) throw wrongStep();
  const user = await loadUser(ctx, who);
  const now = ctx.now();
  const accepted = await inTransaction(ctx, async (tx) => {
    let ok = false;
    if (user.sfa_enabled && user.sfa_secret_enc) {
      const secret = totpSecret(tx.secrets, { id: user.id, sfa_secret_enc: user.sfa_secret_enc });
      const step = secret === null ? null : checkStep(code, secret, now);
      if (step !== null) {
        ok = await repo.claimTotpStep(tx.db, user.id, step);
        if (!ok) await audit(tx, who, 'sfa.totp.replay');
      }
    }
    if (!ok) ok = await repo.useEmailCode(tx.db, user.id, hashCode(user.id, code), now);
    // Returning (not throwing) commits the replay audit; the failure is counted below.
    if (!ok) return null;
    await clearFailedAttempts(tx, user.username);
    await setSessionStatus(tx, who.sessionId, 'Authorized');
    const deviceToken = skipSFA ? await rememberDevice(tx, user.id) : null;
    await audit(tx, who, 'sfa.validated');
    return { deviceToken };
  });
  if (!accepted) return failed(ctx, who, user);
  const { sessionUser } = await buildSessionUser(ctx, user, who.teamId);
  return { answer: { message: 'Authorized', user: sessionUser }, deviceToken: accepted.deviceToken };
}

export async function sendEmailCode(ctx: AppContext, who: SessionIdentity) {
  if (!validationPending(who.status)) throw wrongStep();
  const user = await loadUser(ctx, who);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = ctx.now();
  // One live code at a time: a new one replaces the old.
  await inTransaction(ctx, async (tx) => {
    await repo.expireEmailCodes(tx.db, user.id, now);
    await repo.insertEmailCode(
      tx.db,
      user.id,
      hashCode(user.id, code),
      now,
      new Date(now.getTime() + EMAIL_CODE_TTL_MS),
    );
  });
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
  // Only a code that was sent moves the session on (no transaction is held open while mailing).
  await inTransaction(ctx, async (tx) => {
    await setSessionStatus(tx, who.sessionId, 'SFAValidateEmailCodeNeeded');
    await audit(tx, who, 'sfa.email.sent');
  });
  return { success: true, message: SFA_MESSAGES.codeSent };
}

/**
 * Back to SFAIsNotSet. Allowed to a fully signed-in user (new phone) and
 * during setup, with the current password: a session alone (left open,
 * stolen) must not replace the authenticator. A wrong password counts toward
 * the lock. NOT while a validation is pending, or a stolen password alone
 * could replace the authenticator. The owner is told by email.
 */
export async function resetSecondFactor(ctx: AppContext, who: SessionIdentity, currentPassword: string) {
  if (validationPending(who.status)) throw wrongStep();
  const user = await loadUser(ctx, who);
  await requireCurrentPassword(ctx, who, user, currentPassword);
  // An account without a required second factor stays signed in; the others set one up next.
  const status: AuthStatus = user.sfa_required ? 'SFAIsNotSet' : 'Authorized';
  await inTransaction(ctx, async (tx) => {
    await repo.clearSecondFactor(tx.db, user.id, tx.now());
    await forgetDevices(tx, user.id);
    await setSessionStatus(tx, who.sessionId, status);
    await audit(tx, who, 'sfa.reset');
  });
  if (user.sfa_enabled || user.sfa_secret_enc)
    afterResponse('second-factor reset mail', () =>
      ctx.mailer.send({
        to: user.email,
        subject: 'Your TrialWear authenticator was reset',
        text: [
          `Hello ${user.first_name},`,
          '',
          `The authenticator (second factor) of your TrialWear account (${user.username}) was removed`,
          `at ${ctx.now().toISOString().replace('T', ' ').slice(0, 16)} UTC, from a signed-in session that gave your password.`,
          'A new authenticator is set up at the next sign-in.',
          '',
          'If this was not you, reset your password now with "Forgot your password?" on the login page',
          'and tell your administrator.',
        ].join('\n'),
      }),
    );
  return { message: status };
}

/** Whether this session has passed the second factor. */
export function isSecondFactorValidated(who: SessionIdentity) {
  return { success: who.status === 'Authorized' };
}
