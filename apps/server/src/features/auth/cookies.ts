/*
 * The sign-in cookies. Only routes set or clear them: services return the
 * session token or the remembered-device value and never see the reply.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { DEVICE_COOKIE, DEVICE_LIFETIME_MS } from './remembered-device.js';
import { SESSION_COOKIE } from './session.js';

const secure = (ctx: Pick<AppContext, 'config'>) => ctx.config.publicUrl.startsWith('https://');

export function setSessionCookie(reply: FastifyReply, ctx: Pick<AppContext, 'config'>, token: string) {
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure(ctx) });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

export function setDeviceCookie(reply: FastifyReply, ctx: Pick<AppContext, 'config'>, value: string) {
  reply.setCookie(DEVICE_COOKIE, value, {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'strict',
    secure: secure(ctx),
    maxAge: DEVICE_LIFETIME_MS / 1000,
  });
}

export function deviceCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies[DEVICE_COOKIE];
}
