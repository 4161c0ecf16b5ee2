/*
 * The sign-in cookies. Only routes set or clear them: services return the
 * session token or the remembered-device value and never see the reply.
 */
import { cookieName } from '@trialwear/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { setCsrfCookie } from '../../http/csrf.js';
import { DEVICE_LIFETIME_MS } from './remembered-device.js';
import { sessionCookieName } from './session.js';

type CookieContext = Pick<AppContext, 'config' | 'secrets'>;
const secure = (ctx: Pick<AppContext, 'config'>) => ctx.config.secureCookies;

/** A new session also gets a new CSRF token: tokens are bound to the session they were issued for. */
export function setSessionCookie(reply: FastifyReply, ctx: CookieContext, token: string) {
  reply.setCookie(sessionCookieName(ctx), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(ctx),
  });
  setCsrfCookie(reply, ctx, token);
}

export function clearSessionCookie(reply: FastifyReply, ctx: CookieContext) {
  reply.clearCookie(sessionCookieName(ctx), { path: '/', secure: secure(ctx) });
  setCsrfCookie(reply, ctx, null);
}

export function setDeviceCookie(reply: FastifyReply, ctx: Pick<AppContext, 'config'>, value: string) {
  reply.setCookie(cookieName('device', ctx.config.secureCookies), value, {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'strict',
    secure: secure(ctx),
    maxAge: DEVICE_LIFETIME_MS / 1000,
  });
}

export function deviceCookieOf(request: FastifyRequest, ctx: Pick<AppContext, 'config'>): string | undefined {
  return request.cookies[cookieName('device', ctx.config.secureCookies)];
}
