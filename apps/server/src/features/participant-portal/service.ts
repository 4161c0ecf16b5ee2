/*
 * Participant sign-in and the participant's own page (issue #14). Sign-in
 * follows the staff sign-in's rules with its code (auth/lockout.ts,
 * auth/passwords.ts): the same hash work for unknown usernames, five
 * failures lock with the same escalation and messages, attempts during a
 * lock are refused and not counted. Participant usernames are counted under
 * their own key prefix, so a participant and a staff user of the same name
 * never lock each other. "Stop sharing" goes through device-links'
 * revokeLink: the token is revoked at the provider and staff see the link
 * revoked.
 */
import { PARTICIPANT_PORTAL_MESSAGES, PROVIDER_OF_LINK, type Provider } from '@trialwear/contract';
import { AppError, notFound } from '../../access/errors.js';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import type { RequestOrigin } from '../../http/session-identity.js';
import { requireRecaptcha } from '../../security/recaptcha.js';
import { hashToken } from '../../security/tokens.js';
import { clearFailedAttempts, passwordStep, usernameKey } from '../auth/lockout.js';
import { revokeLink } from '../device-links/service.js';
import * as repo from './repo.js';
import type { ParticipantAuth } from './session.js';
import { startParticipantSession } from './session.js';

/** Participant usernames' lockout key: apart from staff usernames in login_lockouts. */
export const participantLockKey = (username: string) => `participant:${usernameKey(username)}`;

const accountOf = (a: { username: string; email: string; email_verified_at: unknown }) => ({
  username: a.username,
  email: a.email,
  emailConfirmed: a.email_verified_at !== null,
});

export async function participantLogin(
  ctx: AppContext,
  origin: RequestOrigin,
  input: { username: string; password: string; recaptchaResponse: string; verifyToken?: string | undefined },
) {
  await requireRecaptcha(ctx.recaptcha, input.recaptchaResponse, origin.ip);
  const key = participantLockKey(input.username);
  const account = await repo.findAccountByUsername(ctx.db, input.username);
  // No staff account behind this key: the lock is audited without a user id (the key names the
  // account), and the lock mail with a staff reset link is not sent.
  await passwordStep(ctx, origin, {
    key,
    passwordHash: account?.password_hash,
    password: input.password,
    known: !!account,
    account: null,
  });
  if (!account) throw new Error('unreachable: passwordStep refuses an unknown username');
  // The confirmation link of the sign-up mail proves the address, with the password: only then is the
  // account tied to participants enrolled under that address.
  const confirms =
    !account.email_verified_at &&
    !!input.verifyToken &&
    !!account.email_verify_token_hash &&
    hashToken(input.verifyToken) === account.email_verify_token_hash;
  const token = await inTransaction(ctx, async (tx) => {
    await clearFailedAttempts(tx, key);
    if (confirms) await repo.markEmailVerified(tx.db, account.id, tx.now());
    await recordAudit(tx.db, {
      userId: null,
      teamId: null,
      action: 'participant_account.login',
      entityType: 'participant_account',
      entityId: account.id,
      after: confirms ? { emailConfirmed: true } : undefined,
      requestId: origin.requestId,
      ip: origin.ip,
    });
    return startParticipantSession(tx, origin, account.id);
  });
  return {
    sessionToken: token,
    answer: {
      account: accountOf({ ...account, email_verified_at: confirms ? true : account.email_verified_at }),
    },
  };
}

export async function participantLogout(
  ctx: AppContext,
  who: ParticipantAuth | null,
  origin: { requestId: string; ip: string },
) {
  if (!who) return;
  await inTransaction(ctx, async (tx) => {
    await repo.deleteSession(tx.db, who.sessionId);
    await recordAudit(tx.db, {
      userId: null,
      teamId: null,
      action: 'participant_account.logout',
      entityType: 'participant_account',
      entityId: who.accountId,
      requestId: origin.requestId,
      ip: origin.ip,
    });
  });
}

export async function sharedDevices(ctx: AppContext, who: ParticipantAuth) {
  const rows = await repo.sharedLinks(ctx.db, who.accountId);
  return {
    emailConfirmed: who.emailConfirmed,
    links: rows.map((r) => ({
      linkId: r.link_id,
      provider: PROVIDER_OF_LINK[r.provider as keyof typeof PROVIDER_OF_LINK] as Provider,
      trialName: r.trial_name,
      teamName: r.team_name,
      since: r.authorization_date ? new Date(r.authorization_date).toISOString() : null,
    })),
  };
}

/** "Stop sharing": only a link of this account's own participants (another's answers 404 like a missing one). */
export async function stopSharing(
  ctx: AppContext,
  who: ParticipantAuth,
  origin: { requestId: string; ip: string },
  linkId: number,
) {
  const link = await repo.findSharedLink(ctx.db, who.accountId, linkId);
  if (!link) throw notFound(PARTICIPANT_PORTAL_MESSAGES.linkNotFound);
  // The client of the link's own API (a Fitbit link: legacy or Google Health).
  const client = ctx.providers.links[link.provider as keyof typeof PROVIDER_OF_LINK];
  try {
    await revokeLink(ctx, client, link, {
      userId: null,
      teamId: link.team_id,
      requestId: origin.requestId,
      ip: origin.ip,
      participantId: link.participant_id,
      after: { by: 'participant', participantAccountId: who.accountId },
    });
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 502)
      throw new AppError(502, PARTICIPANT_PORTAL_MESSAGES.stopFailed, 'InternalError', {
        displayToUser: true,
      });
    throw err;
  }
  return { success: true, message: PARTICIPANT_PORTAL_MESSAGES.stopped };
}
