/*
 * 'Remember this device for 48 hours': a signed cookie bound to one user.
 * The database keeps its hash and expiry, so it can be checked, expired and
 * revoked (a password change or reset forgets every device).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LIMITS } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { hashToken } from '../../security/tokens.js';
import * as repo from './repo.js';

export const DEVICE_LIFETIME_MS = LIMITS.rememberDeviceHours * 60 * 60 * 1000;

const sign = (secret: string, userId: number, nonce: string) =>
  createHmac('sha256', secret).update(`device:${userId}:${nonce}`).digest('base64url');

/** Records a remembered device; returns the cookie value, which the route sets. */
export async function rememberDevice(
  ctx: Pick<AppContext, 'db' | 'now' | 'secrets'>,
  userId: number,
): Promise<string> {
  const nonce = randomBytes(24).toString('base64url');
  const value = `${userId}.${nonce}.${sign(ctx.secrets.sessionSecret, userId, nonce)}`;
  const now = ctx.now();
  await repo.insertRememberedDevice(ctx.db, {
    id: hashToken(value),
    userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + DEVICE_LIFETIME_MS),
  });
  return value;
}

/** True when the device cookie's value is valid, unexpired and for this user. */
export async function isRememberedDevice(
  ctx: Pick<AppContext, 'db' | 'now' | 'secrets'>,
  value: string | undefined,
  userId: number,
): Promise<boolean> {
  if (!value) return false;
  const [uid, nonce, mac] = value.split('.');
  if (!uid || !nonce || !mac || Number(uid) !== userId) return false;
  const expected = Buffer.from(sign(ctx.secrets.sessionSecret, userId, nonce));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  const row = await repo.findRememberedDevice(ctx.db, hashToken(value), userId);
  return !!row && new Date(row.expires_at).getTime() > ctx.now().getTime();
}

export async function forgetDevices(ctx: Pick<AppContext, 'db'>, userId: number) {
  await repo.deleteRememberedDevices(ctx.db, userId);
}
