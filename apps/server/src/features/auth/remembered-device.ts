/*
 * 'Remember this device for 48 hours': a signed cookie bound to one user.
 * The database keeps its hash and expiry, so it can be checked, expired and
 * revoked (a password change or reset forgets every device).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LIMITS } from '@trialwear/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { hashToken } from '../../security/tokens.js';

export const DEVICE_COOKIE = 'tw_device';
const LIFETIME_MS = LIMITS.rememberDeviceHours * 60 * 60 * 1000;

const sign = (secret: string, userId: number, nonce: string) =>
  createHmac('sha256', secret).update(`device:${userId}:${nonce}`).digest('base64url');

export async function rememberDevice(ctx: AppContext, reply: FastifyReply, userId: number) {
  const nonce = randomBytes(24).toString('base64url');
  const value = `${userId}.${nonce}.${sign(ctx.secrets.sessionSecret, userId, nonce)}`;
  const now = ctx.now();
  await ctx.db
    .insertInto('remembered_devices')
    .values({
      id: hashToken(value),
      user_id: userId,
      created_at: now,
      expires_at: new Date(now.getTime() + LIFETIME_MS),
    })
    .execute();
  reply.setCookie(DEVICE_COOKIE, value, {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.config.publicUrl.startsWith('https://'),
    maxAge: LIFETIME_MS / 1000,
  });
}

/** True when the request carries a valid, unexpired device cookie for this user. */
export async function isRememberedDevice(
  ctx: AppContext,
  request: FastifyRequest,
  userId: number,
): Promise<boolean> {
  const value = request.cookies[DEVICE_COOKIE];
  if (!value) return false;
  const [uid, nonce, mac] = value.split('.');
  if (!uid || !nonce || !mac || Number(uid) !== userId) return false;
  const expected = Buffer.from(sign(ctx.secrets.sessionSecret, userId, nonce));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  const row = await ctx.db
    .selectFrom('remembered_devices')
    .select('expires_at')
    .where('id', '=', hashToken(value))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return !!row && new Date(row.expires_at).getTime() > ctx.now().getTime();
}

export async function forgetDevices(ctx: AppContext, userId: number) {
  await ctx.db.deleteFrom('remembered_devices').where('user_id', '=', userId).execute();
}
