/*
 * Sign-up by approval (admin spec): a Sys_Admin approves an email with a role
 * in a team; the emailed single-use link (7 days) leads to the sign-up form.
 * The new account's email, team and role come from the invitation, never
 * from the form.
 */
import { PARTICIPANT_SIGNUP_MESSAGES, SIGNUP_MESSAGES } from '@trialwear/contract';
import type { Actor } from '../../access/actor.js';
import { AppError, notFound } from '../../access/errors.js';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import type { RequestOrigin } from '../../http/session-identity.js';
import { afterResponse } from '../../mail/after-response.js';
import { requireRecaptcha } from '../../security/recaptcha.js';
import { hashToken, newLinkToken } from '../../security/tokens.js';
import { hashPassword } from '../auth/passwords.js';
import { insertUser, prepareUser } from '../users/service.js';
import * as repo from './repo.js';

const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const invalidLink = () =>
  new AppError(400, SIGNUP_MESSAGES.linkInvalid, 'ValidationError', { displayToUser: true });

export async function approveSignup(
  ctx: AppContext,
  actor: Actor,
  input: { email: string; role: 'Viewer' | 'User' | 'Admin'; teamId: number },
) {
  const { token, hash } = newLinkToken();
  const now = ctx.now();
  // The invitation and its audit row first, then the mail: no transaction is held open while mailing.
  const team = await inTransaction(ctx, async (tx) => {
    const team = await repo.findTeam(tx.db, input.teamId);
    if (!team) throw notFound('Team not found');
    await repo.insertInvitation(tx.db, {
      tokenHash: hash,
      email: input.email,
      role: input.role,
      teamId: team.id,
      approvedBy: actor.userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
    });
    await recordAudit(tx.db, {
      userId: actor.userId,
      teamId: team.id,
      action: 'signup.approved',
      entityType: 'signup_invitation',
      entityId: hash.slice(0, 16),
      after: { email: input.email, role: input.role, teamId: team.id },
      requestId: actor.requestId,
      ip: actor.ip,
    });
    return team;
  });
  await ctx.mailer.send({
    to: input.email,
    subject: 'Your TrialWear sign-up was approved',
    text: [
      'Hello,',
      '',
      `Your request to join TrialWear was approved: team "${team.team_name}", role ${input.role}.`,
      'Create your account with this link (valid 7 days, usable once):',
      '',
      `${ctx.config.publicUrl}/SignupValidation?token=${token}`,
      '',
      'If you did not ask to join TrialWear, ignore this email.',
    ].join('\n'),
  });
  return { success: true, message: SIGNUP_MESSAGES.approvalSent };
}

async function liveInvitation(ctx: Pick<AppContext, 'db' | 'now'>, token: string) {
  const row = await repo.findInvitation(ctx.db, hashToken(token));
  if (!row || row.used_at || new Date(row.expires_at).getTime() <= ctx.now().getTime()) throw invalidLink();
  return row;
}

export async function validateInvitation(ctx: AppContext, token: string) {
  const row = await liveInvitation(ctx, token);
  return { email: row.email, role: row.role, teamId: row.team_id, teamName: row.team_name };
}

/**
 * Spending the link, creating the account and the audit row are one
 * transaction: a refused username rolls the link back to unused, so the
 * person can retry with another one.
 */
export async function signUp(
  ctx: AppContext,
  origin: RequestOrigin,
  input: {
    token: string;
    username: string;
    password: string;
    firstName: string;
    lastName: string;
    organization: string;
    recaptchaResponse: string;
  },
) {
  await requireRecaptcha(ctx.recaptcha, input.recaptchaResponse, origin.ip);
  const invite = await liveInvitation(ctx, input.token);
  const user = await prepareUser({
    username: input.username,
    email: invite.email,
    password: input.password,
    firstName: input.firstName,
    lastName: input.lastName,
    organization: input.organization || undefined,
    teamId: invite.team_id,
    role: invite.role,
    sfaRequired: true,
  });
  await inTransaction(ctx, async (tx) => {
    if (!(await repo.spendInvitation(tx.db, invite.token_hash, tx.now()))) throw invalidLink();
    const userId = await insertUser(tx.db, user).catch((err) => {
      if (err instanceof AppError && err.statusCode === 409) {
        throw new AppError(
          409,
          err.message.includes('username') ? SIGNUP_MESSAGES.usernameTaken : SIGNUP_MESSAGES.emailTaken,
          'Conflict',
          { displayToUser: true },
        );
      }
      throw err;
    });
    await repo.setInvitationUser(tx.db, invite.token_hash, userId);
    await recordAudit(tx.db, {
      userId,
      teamId: invite.team_id,
      action: 'signup.completed',
      entityType: 'user',
      entityId: userId,
      requestId: origin.requestId,
      ip: origin.ip,
    });
  });
  return { success: true, message: SIGNUP_MESSAGES.success, data: { redirectTo: '/LoginPage' } };
}

/**
 * Participant self sign-up (the spec leaves the rest open): an account a
 * participant can later use to see and withdraw their consents. It is not a
 * staff account and opens no staff page.
 *
 * The answer is the same, and as fast, whether the account is created or the
 * email (or the username) is already taken: the password is hashed first
 * (the slow part, in every case), everything else runs after the answer, and
 * the outcome is told by email to the address given. So the form does not
 * tell anybody whether an email has an account; its owner learns that
 * somebody tried.
 */
export async function participantSignUp(
  ctx: AppContext,
  origin: RequestOrigin,
  input: { username: string; email: string; password: string },
) {
  const passwordHash = await hashPassword(input.password);
  afterResponse('participant sign-up', () => completeParticipantSignUp(ctx, origin, input, passwordHash));
  return { success: true, message: PARTICIPANT_SIGNUP_MESSAGES.received };
}

async function completeParticipantSignUp(
  ctx: AppContext,
  origin: RequestOrigin,
  input: { username: string; email: string },
  passwordHash: string,
) {
  // The new account's email is confirmed by this link (with the password) at its first sign-in:
  // only then is the account tied to participants enrolled under that address (participant-portal).
  const verify = newLinkToken();
  const outcome = await inTransaction(ctx, async (tx) => {
    const audit = (action: string, entityId: number | null) =>
      recordAudit(tx.db, {
        userId: null,
        teamId: null,
        action,
        entityType: 'participant_account',
        entityId,
        requestId: origin.requestId,
        ip: origin.ip,
      });
    // Insert first: a concurrent sign-up with the same email or username waits for ours and then
    // inserts nothing, so two answers never race into two accounts or a unique-key error.
    const id = await repo.insertParticipantAccountIfFree(tx.db, {
      username: input.username,
      email: input.email,
      passwordHash,
      verifyTokenHash: verify.hash,
    });
    if (id !== null) {
      await audit('participant_account.created', id);
      return { kind: 'created' as const };
    }
    const clash = await repo.findParticipantAccountClash(tx.db, input.username, input.email);
    if (clash?.emailTaken) {
      await audit('participant_account.signup.email_taken', clash.id);
      return { kind: 'emailTaken' as const, username: clash.username };
    }
    await audit('participant_account.signup.username_taken', null);
    return { kind: 'usernameTaken' as const };
  });
  const hello = ['Hello,', ''];
  const notYou = 'If you did not sign up, ignore this email: nothing was changed.';
  const text = {
    created: [
      ...hello,
      `Your TrialWear participant account "${input.username}" was created.`,
      '',
      'Confirm this email address by signing in once with this link; it shows you which devices you share',
      'with which study, and lets you stop sharing:',
      '',
      `${ctx.config.publicUrl}/ParticipantLoginPage?verify=${verify.token}`,
      '',
      'If you did not sign up, tell us with the contact form on the TrialWear site.',
    ],
    emailTaken: [
      ...hello,
      'Somebody tried to create a TrialWear participant account with this email address, which already has one',
      `(username "${outcome.kind === 'emailTaken' ? outcome.username : ''}"). No second account was created.`,
      '',
      notYou,
    ],
    usernameTaken: [
      ...hello,
      `The username "${input.username}" is already taken, so no participant account was created.`,
      `Please sign up again with another username: ${ctx.config.publicUrl}/ParticipantSignupPage`,
      '',
      notYou,
    ],
  }[outcome.kind];
  await ctx.mailer.send({
    to: input.email,
    subject: 'Your TrialWear participant account',
    text: text.join('\n'),
  });
}

/** POST /api/recaptchaVer3Verify: refused unless the token passes. */
export async function verifyRecaptcha(ctx: AppContext, origin: RequestOrigin, token: string) {
  await requireRecaptcha(ctx.recaptcha, token, origin.ip);
  return { success: true };
}
