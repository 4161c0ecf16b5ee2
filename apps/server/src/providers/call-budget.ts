/*
 * The provider call budget per participant device and clock hour (Fitbit
 * allows 150 calls per user and hour, reset at the top of the hour), kept in
 * PostgreSQL so that every server and worker draws on one budget. Staff
 * reads (data pages, device lists) may use it up to PROVIDER_CALLS_PER_HOUR;
 * the background sync stops at its own share, SYNC_CALLS_PER_HOUR (lower),
 * so the pages keep some room while the sync runs.
 */
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { takeCall } from './call-budget-repo.js';

export type BudgetAnswer = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Takes one call of the device's budget for an interactive read; when spent, how long until the next hour. */
export async function takeInteractiveCall(
  ctx: { db: Db; now: () => Date; config: Pick<Config, 'PROVIDER_CALLS_PER_HOUR'> },
  deviceId: number,
): Promise<BudgetAnswer> {
  const now = ctx.now();
  if (await takeCall(ctx.db, deviceId, now, ctx.config.PROVIDER_CALLS_PER_HOUR)) return { ok: true };
  const nextHour = Math.floor(now.getTime() / 3_600_000 + 1) * 3_600_000;
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((nextHour - now.getTime()) / 1000)) };
}
