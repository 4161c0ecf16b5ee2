/*
 * The provider call budget per participant device and clock hour (Fitbit
 * allows 150 calls per user and hour, reset at the top of the hour), kept in
 * PostgreSQL so that every server and worker draws on one budget, split by
 * who calls (docs/decisions/004-provider-call-budget.md):
 * - interactive reads (data pages, device lists) may make at most
 *   INTERACTIVE_CALLS_PER_HOUR (60) calls of the device's hour;
 * - the background sync and the exports' fetch at most SYNC_CALLS_PER_HOUR
 *   (120);
 * - both together at most PROVIDER_CALLS_PER_HOUR (150).
 * So browsing can never take what the sync needs (it always keeps 150 − 60
 * = 90 calls of the hour), and a busy sync always leaves the pages 30.
 */
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { takeBackgroundCall, takeInteractiveCalls } from './call-budget-repo.js';

export type BudgetAnswer =
  | { ok: true }
  | {
      ok: false;
      retryAfterSeconds: number;
      /** When the device's next hour starts: calls may resume then. */
      resumesAt: Date;
    };

type BudgetCtx = {
  db: Db;
  now: () => Date;
  config: Pick<Config, 'PROVIDER_CALLS_PER_HOUR' | 'INTERACTIVE_CALLS_PER_HOUR' | 'SYNC_CALLS_PER_HOUR'>;
};

export const nextHour = (now: Date) => new Date(Math.floor(now.getTime() / 3_600_000 + 1) * 3_600_000);

function spent(now: Date): BudgetAnswer {
  const resumesAt = nextHour(now);
  return {
    ok: false,
    resumesAt,
    retryAfterSeconds: Math.max(1, Math.ceil((resumesAt.getTime() - now.getTime()) / 1000)),
  };
}

/**
 * Takes `n` calls (default one) of the device's interactive share for an
 * interactive read, all or none; when spent, when it resumes (the next hour).
 */
export async function takeInteractiveCall(ctx: BudgetCtx, deviceId: number, n = 1): Promise<BudgetAnswer> {
  const now = ctx.now();
  const limits = {
    interactive: ctx.config.INTERACTIVE_CALLS_PER_HOUR,
    total: ctx.config.PROVIDER_CALLS_PER_HOUR,
  };
  if (await takeInteractiveCalls(ctx.db, deviceId, now, n, limits)) return { ok: true };
  return spent(now);
}

/** Takes one call of the device's background share (sync, export fetch); when spent, when it resumes. */
export async function takeSyncCall(ctx: BudgetCtx, deviceId: number): Promise<BudgetAnswer> {
  const now = ctx.now();
  const limits = { background: ctx.config.SYNC_CALLS_PER_HOUR, total: ctx.config.PROVIDER_CALLS_PER_HOUR };
  if (await takeBackgroundCall(ctx.db, deviceId, now, limits)) return { ok: true };
  return spent(now);
}
