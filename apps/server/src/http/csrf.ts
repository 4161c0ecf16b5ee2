/*
 * CSRF: double-submit token. GET /api/csrf-token returns a token and sets it in
 * the readable cookie `tw_csrf`; every write (POST/PUT/PATCH/DELETE) under /api
 * must send the same value in the `x-csrf-token` header (so must the spec's
 * state-changing GETs, listed in the contract). This is the only CSRF check. The token is signed
 * with the session secret, so a cookie planted by another site is refused; a
 * cross-site page cannot read our cookie to copy it into the header.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CSRF_HEADER, cookieName, csrfTokenSchema, STATE_CHANGING_GETS } from '@trialwear/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../access/errors.js';
import type { AppContext } from '../app-context.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const STATE_CHANGING = new Set<string>(STATE_CHANGING_GETS);

/** Writes, and the spec's few GETs that change state (revokeAccessToken). */
function needsCsrf(request: FastifyRequest) {
  if (!request.url.startsWith('/api/')) return false;
  return (
    WRITE_METHODS.has(request.method) || STATE_CHANGING.has(`${request.method} ${request.routeOptions.url}`)
  );
}

/**
 * The token is bound to the session it was issued for (its cookie's hash,
 * or none before sign-in): a token taken from one session, or an anonymous
 * one, is refused with another session's cookie. Sign-in and sign-out
 * issue a new one (features/auth/cookies.ts).
 */
const bindingOf = (sessionToken: string | null | undefined) =>
  sessionToken ? createHash('sha256').update(sessionToken).digest('base64url') : '';

function sign(secret: string, nonce: string, binding: string) {
  return createHmac('sha256', secret).update(`csrf:${nonce}:${binding}`).digest('base64url');
}

export function issueCsrfToken(secret: string, sessionToken: string | null | undefined) {
  const nonce = randomBytes(18).toString('base64url');
  return `${nonce}.${sign(secret, nonce, bindingOf(sessionToken))}`;
}

export function isValidCsrfToken(secret: string, token: string, sessionToken: string | null | undefined) {
  const [nonce, mac] = token.split('.');
  if (!nonce || !mac) return false;
  const expected = Buffer.from(sign(secret, nonce, bindingOf(sessionToken)));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

type CsrfContext = Pick<AppContext, 'config' | 'secrets'>;
const csrfCookieName = (ctx: Pick<AppContext, 'config'>) => cookieName('csrf', ctx.config.secureCookies);

/** Sets a fresh token for this session (or for none) in the readable cookie; returns it. */
export function setCsrfCookie(
  reply: FastifyReply,
  ctx: CsrfContext,
  sessionToken: string | null | undefined,
) {
  const token = issueCsrfToken(ctx.secrets.sessionSecret, sessionToken);
  reply.setCookie(csrfCookieName(ctx), token, {
    path: '/',
    sameSite: 'strict',
    secure: ctx.config.secureCookies,
    httpOnly: false,
  });
  return token;
}

export function registerCsrf(app: FastifyInstance, ctx: CsrfContext) {
  const secret = ctx.secrets.sessionSecret;
  // Bound to the staff session, or else to a participant's (issue #14): each sign-in sets a token for its own.
  const sessionOf = (request: FastifyRequest) =>
    request.cookies[cookieName('session', ctx.config.secureCookies)] ??
    request.cookies[cookieName('participantSession', ctx.config.secureCookies)];
  // Callback style, not async: on every request, and nothing to wait for.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!needsCsrf(request)) return done();
    const header = request.headers[CSRF_HEADER];
    const cookie = request.cookies[csrfCookieName(ctx)];
    if (
      typeof header !== 'string' ||
      !cookie ||
      header !== cookie ||
      !isValidCsrfToken(secret, header, sessionOf(request))
    ) {
      return done(new AppError(403, 'Invalid or missing CSRF token', 'CsrfError', { displayToUser: false }));
    }
    done();
  });

  app.get(
    '/api/csrf-token',
    {
      schema: {
        tags: ['security'],
        summary: 'Issue a CSRF token for this session (also set in the readable CSRF cookie)',
        response: { 200: csrfTokenSchema },
      },
    },
    async (request, reply) => {
      const existing = request.cookies[csrfCookieName(ctx)];
      if (existing && isValidCsrfToken(secret, existing, sessionOf(request))) return { csrfToken: existing };
      return { csrfToken: setCsrfCookie(reply, ctx, sessionOf(request)) };
    },
  );
}
