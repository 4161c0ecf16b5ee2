/*
 * CSRF: double-submit token. GET /api/csrf-token returns a token and sets it in
 * the readable cookie `tw_csrf`; every write (POST/PUT/PATCH/DELETE) under /api
 * must send the same value in the `x-csrf-token` header (so must the spec's
 * state-changing GETs, listed in the contract). This is the only CSRF check. The token is signed
 * with the session secret, so a cookie planted by another site is refused; a
 * cross-site page cannot read our cookie to copy it into the header.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CSRF_COOKIE, CSRF_HEADER, csrfTokenSchema, STATE_CHANGING_GETS } from '@trialwear/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const STATE_CHANGING = new Set<string>(STATE_CHANGING_GETS);

/** Writes, and the spec's few GETs that change state (revokeAccessToken). */
function needsCsrf(request: FastifyRequest) {
  if (!request.url.startsWith('/api/')) return false;
  return (
    WRITE_METHODS.has(request.method) || STATE_CHANGING.has(`${request.method} ${request.routeOptions.url}`)
  );
}

function sign(secret: string, nonce: string) {
  return createHmac('sha256', secret).update(`csrf:${nonce}`).digest('base64url');
}

export function issueCsrfToken(secret: string) {
  const nonce = randomBytes(18).toString('base64url');
  return `${nonce}.${sign(secret, nonce)}`;
}

export function isValidCsrfToken(secret: string, token: string) {
  const [nonce, mac] = token.split('.');
  if (!nonce || !mac) return false;
  const expected = Buffer.from(sign(secret, nonce));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function registerCsrf(app: FastifyInstance, opts: { secret: string; secureCookies: boolean }) {
  app.addHook('onRequest', async (request) => {
    if (!needsCsrf(request)) return;
    const header = request.headers[CSRF_HEADER];
    const cookie = request.cookies[CSRF_COOKIE];
    if (
      typeof header !== 'string' ||
      !cookie ||
      header !== cookie ||
      !isValidCsrfToken(opts.secret, header)
    ) {
      throw new AppError(403, 'Invalid or missing CSRF token', 'CsrfError', { displayToUser: false });
    }
  });

  app.get(
    '/api/csrf-token',
    {
      schema: {
        tags: ['security'],
        summary: 'Issue a CSRF token (also set in the tw_csrf cookie)',
        response: { 200: csrfTokenSchema },
      },
    },
    async (request, reply) => {
      const existing = request.cookies[CSRF_COOKIE];
      const csrfToken =
        existing && isValidCsrfToken(opts.secret, existing) ? existing : issueCsrfToken(opts.secret);
      reply.setCookie(CSRF_COOKIE, csrfToken, {
        path: '/',
        sameSite: 'strict',
        secure: opts.secureCookies,
        httpOnly: false,
      });
      return { csrfToken };
    },
  );
}
