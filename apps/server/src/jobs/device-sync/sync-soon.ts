/*
 * Sync at once instead of at the next 15-minute slot (issue #21 §4): a new
 * link's backfill after its consent, a metric newly stored for a team. The
 * job is the schedule's own `device-sync` job with the device's singleton key
 * on the stately queue, so a job already waiting for the device (the
 * schedule's, or an earlier trigger's) is that job and nothing is read twice.
 * Features do not import the job runner: the app passes these to their routes
 * (http/app.ts), and they call them after their transaction commits.
 */
import type { AppContext } from '../../app-context.js';
import { enqueue } from '../job-definition.js';
import { deviceSync } from './job.js';
import * as repo from './repo.js';

/** One device's sync, now; false when a job for it was already waiting (or there is no queue). */
export async function syncDeviceSoon(ctx: AppContext, deviceId: number): Promise<boolean> {
  if (!ctx.boss) return false;
  return (await enqueue(ctx.boss, deviceSync, { deviceId })) !== null;
}

/**
 * The syncs of the team's authorized devices that now store one of `metricKeys`
 * (enabled by the Sys_Admin and selected by the team, as the sync reads them).
 * Answers the jobs enqueued.
 */
export async function syncMetricsSoon(
  ctx: AppContext,
  teamId: number,
  metricKeys: readonly string[],
): Promise<number> {
  if (!ctx.boss || metricKeys.length === 0) return 0;
  const stored = new Map<string, string[]>();
  let enqueued = 0;
  for (const d of await repo.teamSyncableDevices(ctx.db, teamId)) {
    const metrics = stored.get(d.provider) ?? (await repo.metricsFor(ctx.db, teamId, d.provider));
    stored.set(d.provider, metrics);
    if (metricKeys.some((k) => metrics.includes(k)) && (await syncDeviceSoon(ctx, d.id))) enqueued++;
  }
  return enqueued;
}
