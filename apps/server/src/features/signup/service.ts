/*
 * Sign-up by approval (admin spec): a Sys_Admin approves an email with a role
 * in a team; the emailed single-use link (7 days) leads to the sign-up form.
 * The new account's email, team and role come from the invitation, never
 * from the form.
 */
import { SIGNUP_MESSAGES } from '@trialwear/contract';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { AppError, notFound } from '../../http/errors.js';
import { hashToken, newLinkToken } from '../../security/tokens.js';
import { hashPassword } from '../auth/passwords.js';
import { createUser } from '../users/service.js';

const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const invalidLink = () =>
  new AppError(400, SIGNUP_MESSAGES.linkInvalid, 'ValidationError', { displayToUser: true });

export async function approveSignup(
  ctx: AppContext,
  request: FastifyRequest,
  input: { email: string; role: 'Viewer' | 'User' | 'Admin'; teamId: number },
) {
  const team = await ctx.db
    .selectFrom('teams')
    .select(['id', 'team_name'])
    .where('id', '=', input.teamId)
    .executeTakeFirst();
  if (!team) throw notFound('Team not found');
  const { token, hash } = newLinkToken();
  const now = ctx.now();
  await ctx.db
    .insertInto('signup_invitations')
    .values({
      token_hash: hash,
      email: input.email,
      role: input.role,
      team_id: team.id,
      approved_by: request.auth!.user.id,
      created_at: now,
      expires_at: new Date(now.getTime() + INVITE_TTL_MS),
    })
    .execute();
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
  await recordAudit(ctx.db, {
    userId: request.auth!.user.id,
    teamId: team.id,
    action: 'signup.approved',
    entityType: 'signup_invitation',
    entityId: hash.slice(0, 16),
    after: { email: input.email, role: input.role, teamId: team.id },
    requestId: request.id,
    ip: request.ip,
  });
  return { success: true, message: SIGNUP_MESSAGES.approvalSent };
}

async function liveInvitation(ctx: AppContext, token: string) {
  const row = await ctx.db
    .selectFrom('signup_invitations as i')
    .innerJoin('teams as t', 't.id', 'i.team_id')
    .select(['i.token_hash', 'i.email', 'i.role', 'i.team_id', 't.team_name', 'i.used_at', 'i.expires_at'])
    .where('i.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.used_at || new Date(row.expires_at).getTime() <= ctx.now().getTime()) throw invalidLink();
  return row;
}

export async function validateInvitation(ctx: AppContext, token: string) {
  const row = await liveInvitation(ctx, token);
  return { email: row.email, role: row.role, teamId: row.team_id, teamName: row.team_name };
}

export async function signUp(
  ctx: AppContext,
  request: FastifyRequest,
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
  if (!(await ctx.recaptcha.verify(input.recaptchaResponse, request.ip))) {
    throw new AppError(400, 'reCAPTCHA verification failed', 'RecaptchaFailed', { displayToUser: true });
  }
  const invite = await liveInvitation(ctx, input.token);
  const spent = await ctx.db
    .updateTable('signup_invitations')
    .set({ used_at: ctx.now() })
    .where('token_hash', '=', invite.token_hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw invalidLink();
  let userId: number;
  try {
    userId = await createUser(ctx.db, {
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
  } catch (err) {
    // Give the link back so the person can retry with another username.
    await ctx.db
      .updateTable('signup_invitations')
      .set({ used_at: null })
      .where('token_hash', '=', invite.token_hash)
      .execute();
    if (err instanceof AppError && err.statusCode === 409) {
      throw new AppError(
        409,
        err.message.includes('username') ? SIGNUP_MESSAGES.usernameTaken : SIGNUP_MESSAGES.emailTaken,
        'Conflict',
        {
          displayToUser: true,
        },
      );
    }
    throw err;
  }
  await ctx.db
    .updateTable('signup_invitations')
    .set({ used_by: userId })
    .where('token_hash', '=', invite.token_hash)
    .execute();
  await recordAudit(ctx.db, {
    userId,
    teamId: invite.team_id,
    action: 'signup.completed',
    entityType: 'user',
    entityId: userId,
    requestId: request.id,
    ip: request.ip,
  });
  return { success: true, message: SIGNUP_MESSAGES.success, data: { redirectTo: '/LoginPage' } };
}

/**
 * Participant self sign-up (the spec leaves the rest open): an account a
 * participant can later use to see and withdraw their consents. It is not a
 * staff account and opens no staff page.
 */
export async function participantSignUp(
  ctx: AppContext,
  input: { username: string; email: string; password: string },
) {
  const clash = await ctx.db
    .selectFrom('participant_accounts')
    .select('id')
    .where((eb) =>
      eb.or([
        eb(sql<string>`lower(username)`, '=', input.username.toLowerCase()),
        eb(sql<string>`lower(email)`, '=', input.email.toLowerCase()),
      ]),
    )
    .executeTakeFirst();
  if (clash)
    throw new AppError(409, 'An account with this username or email already exists.', 'Conflict', {
      displayToUser: true,
    });
  const { id } = await ctx.db
    .insertInto('participant_accounts')
    .values({
      username: input.username,
      email: input.email,
      password_hash: await hashPassword(input.password),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { success: true, message: 'Your participant account was created.', id };
}
