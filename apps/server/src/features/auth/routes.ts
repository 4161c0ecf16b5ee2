import {
  actionResultSchema,
  authResponseSchema,
  loginRequestSchema,
  NOT_SIGNED_IN,
  SESSION_MESSAGES,
  sessionCheckResponseSchema,
} from '@trialwear/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { createKeyLimiter } from '../../http/key-limiter.js';
import { checkAccess } from '../../http/route-access.js';
import { identityOf, originOf, sessionUserOf } from '../../http/session-identity.js';
import { settleAfterResponse } from '../../mail/after-response.js';
import { clearSessionCookie, deviceCookieOf, setSessionCookie } from './cookies.js';
import { usernameKey } from './lockout.js';
import { login, logout, logoutEverywhere } from './service.js';
import { refreshSession } from './session.js';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Mail and other work left after an answer (lockout mail, reset links) finishes before the app closes.
  app.addHook('onClose', () => settleAfterResponse());
  // Per account: 10 sign-in attempts a minute for one username (known or not), whatever the IP;
  // on the app's clock, like the lock. Before the lock and the hash check, so it costs nothing.
  const perAccount = createKeyLimiter(ctx.db, 'login', 10, 60_000, () => ctx.now().getTime());

  r.post(
    '/api/auth/login',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } }, // per IP
      schema: {
        tags: ['auth'],
        summary: 'Sign in with username and password; the answer says which second-factor step follows',
        body: loginRequestSchema,
        response: { 200: authResponseSchema },
      },
    },
    async (request, reply) => {
      await perAccount(usernameKey(request.body.username));
      const { sessionToken, answer } = await login(
        ctx,
        originOf(request),
        request.body,
        deviceCookieOf(request, ctx),
      );
      setSessionCookie(reply, ctx, sessionToken);
      return answer;
    },
  );

  // Session check (spec core §4): 200 for a full session; 403 carrying the
  // status and the partial user while a second factor is pending. Signed out
  // (no session, or an ended or expired one) is 200 'NotSignedIn', not 401, so
  // that a signed-out page load logs no error. The route is 'public' in the
  // table; the full-session rule is checked here, with the guard's own check.
  const sessionUser = async (request: FastifyRequest) => ({
    message: 'Authorized' as const,
    user: sessionUserOf(request),
  });
  const sessionCheck = async (request: FastifyRequest) => {
    if (!request.auth) return { message: NOT_SIGNED_IN, user: null };
    checkAccess(request, 'any');
    return sessionUser(request);
  };

  const sessionSchema = {
    tags: ['auth'],
    response: { 200: authResponseSchema },
  };
  r.get(
    '/api/auth/user',
    {
      schema: {
        tags: ['auth'],
        summary: "The signed-in user, or 'NotSignedIn' (200) without a session",
        response: { 200: sessionCheckResponseSchema },
      },
    },
    sessionCheck,
  );
  r.get(
    '/api/auth/login/',
    { schema: { ...sessionSchema, summary: 'The signed-in user with team (hidden-field rule)' } },
    sessionUser,
  );

  r.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'End this session (the other sessions of the user stay)',
        response: { 200: actionResultSchema },
      },
    },
    async (request, reply) => {
      await logout(ctx, originOf(request));
      clearSessionCookie(reply, ctx);
      return { success: true, message: SESSION_MESSAGES.loggedOut };
    },
  );

  r.post(
    '/api/auth/logoutEverywhere',
    {
      schema: {
        tags: ['auth'],
        summary: 'End every session of the user, this one included, and forget remembered devices',
        response: { 200: actionResultSchema },
      },
    },
    async (request, reply) => {
      const answer = await logoutEverywhere(ctx, identityOf(request));
      clearSessionCookie(reply, ctx);
      return answer;
    },
  );

  r.post(
    '/api/auth/refreshToken',
    {
      schema: {
        tags: ['auth'],
        summary: 'Keep the session alive (the client calls it every 15 minutes)',
        response: { 200: actionResultSchema },
      },
    },
    async (request) => {
      await refreshSession(ctx, identityOf(request).sessionId);
      return { success: true, message: SESSION_MESSAGES.refreshed };
    },
  );
}
