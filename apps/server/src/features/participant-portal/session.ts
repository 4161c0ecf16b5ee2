/*
 * Participant sessions (issue #14): the staff sessions' design (random token
 * in an HttpOnly cookie, only its SHA-256 stored, 30 minutes idle, 12 hours
 * absolute) in their own table and cookie. request.auth never holds one, so
 * a participant session passes no staff check, and the 'participant' access
 * reads only request.participantAuth, which a staff session never sets.
 */
import { cookieName } from '@trialwear/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { setCsrfCookie } from '../../http/csrf.js';
import { hashToken, newSessionToken, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../security/tokens.js';
import * as repo from './repo.js';

export interface ParticipantAuth {
  sessionId: string;
  accountId: number;
  username: string;
  email: string;
  emailConfirmed: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    participantAuth: ParticipantAuth | null;
    participantAuthExpired: boolean;
  }
}

export const participantCookieName = (ctx: Pick<AppContext, 'config'>) =>
  cookieName('participantSession', ctx.config.secureCookies);

/** Records a new session; returns the cookie's token. */
export async function startParticipantSession(
  ctx: Pick<AppContext, 'db' | 'now'>,
  origin: { ip: string; userAgent: string | null },
  accountId: number,
) {
  const token = newSessionToken();
  const now = ctx.now();
  await repo.insertSession(ctx.db, {
    id: hashToken(token),
    accountId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_IDLE_MS),
    ip: origin.ip,
    userAgent: origin.userAgent,
  });
  return token;
}

/** onRequest: the participant session of the cookie, or null. Each use slides the idle expiry (within 12 hours). */
export async function resolveParticipantAuth(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<ParticipantAuth | null> {
  const token = request.cookies[participantCookieName(ctx)];
  if (!token) return null;
  const sessionId = hashToken(token);
  const row = await repo.findSessionAccount(ctx.db, sessionId);
  if (!row) return null;
  const now = ctx.now().getTime();
  const absoluteEnd = new Date(row.created_at).getTime() + SESSION_ABSOLUTE_MS;
  if (new Date(row.expires_at).getTime() <= now || absoluteEnd <= now) {
    await repo.deleteSession(ctx.db, sessionId);
    request.participantAuthExpired = true;
    return null;
  }
  // Half the idle time gone: slide it (one write per quarter hour at most, not one per request).
  if (new Date(row.expires_at).getTime() - now < SESSION_IDLE_MS / 2)
    await repo.extendSession(ctx.db, sessionId, new Date(Math.min(now + SESSION_IDLE_MS, absoluteEnd)));
  return {
    sessionId,
    accountId: row.account_id,
    username: row.username,
    email: row.email,
    emailConfirmed: row.email_verified_at !== null,
  };
}

const secure = (ctx: Pick<AppContext, 'config'>) => ctx.config.secureCookies;

/** A new session gets a new CSRF token bound to it, as at staff sign-in. */
export function setParticipantCookie(
  reply: FastifyReply,
  ctx: Pick<AppContext, 'config' | 'secrets'>,
  token: string,
) {
  reply.setCookie(participantCookieName(ctx), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(ctx),
  });
  setCsrfCookie(reply, ctx, token);
}

export function clearParticipantCookie(reply: FastifyReply, ctx: Pick<AppContext, 'config' | 'secrets'>) {
  reply.clearCookie(participantCookieName(ctx), { path: '/', secure: secure(ctx) });
  setCsrfCookie(reply, ctx, null);
}
