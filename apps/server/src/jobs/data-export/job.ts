/*
 * Batch data export jobs (issue #12). `data-export` runs one export
 * (run-export.ts) by its export_jobs id; pg-boss only wakes workers, the row
 * decides (claim, team slots, lease), so a duplicate wake-up is harmless.
 * `wakeExports` sends a wake-up for each job of a team that may start now
 * (after a request, and when a job ends and frees a slot), in the claim's
 * order (turns across requesters). Wake-ups are deduplicated: one queued
 * wake-up per export job at most (singleton key per job, queue policy
 * 'short'), so a burst of requests or ends never piles up wake-ups.
 * `data-export-sweep` (every minute) wakes whatever may start in any team:
 * jobs that waited for a slot or a provider, and jobs whose worker died
 * (lease expired) — the crash recovery. `data-export-expiry` (daily) deletes
 * files past their 7 days and marks their jobs expired (an audit row each),
 * and sweeps the unfinished writes that crashed runs of jobs no longer
 * running left behind (sweep-temporaries.ts, issue 27).
 */
import { EXPORT_LIMITS } from '@trialwear/contract';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { exportStorage } from '../../features/data-export/service.js';
import { defineJob, enqueue } from '../job-definition.js';
import * as repo from './repo.js';
import { runExport } from './run-export.js';
import { type SweptTemporaries, sweepOrphanedTemporaries } from './sweep-temporaries.js';

export const dataExport = defineJob({
  name: 'data-export',
  payload: z.object({ jobId: z.uuid() }).strict(),
  async handler(ctx, { jobId }) {
    const outcome = await runExport(ctx, jobId);
    // This run ended and freed its slot: wake the team's next ones. A wake-up that changed
    // nothing (the job was not its turn, already running or done) frees nothing and wakes nobody,
    // so duplicate wake-ups cannot multiply.
    if (NOTHING_FREED.has(outcome.status)) return outcome;
    const row = await repo.jobById(ctx.db, jobId);
    if (row) await wakeExports(ctx, row.team_id);
    return outcome;
  },
  // One queued wake-up per export job ('short': a second one while one waits is dropped).
  singletonKey: ({ jobId }) => `export-${jobId}`,
  policy: 'short',
  // Retries are the row's business (attempts, requeue); pg-boss retries only a crash of the handler itself.
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  // Two exports at once per process (the per-team limit is enforced by the claim).
  workers: 2,
  // A long export holds its pg-boss job this long at most; a dead worker's job is taken over by the lease first.
  expireInSeconds: 6 * 3_600,
});

/** Outcomes of a run that held no slot: nothing to hand on. */
const NOTHING_FREED = new Set(['skipped', 'waiting', 'not_found']);

/** Wake the jobs of a team (or of every team) that may start now, in turn order, up to the free slots. */
export async function wakeExports(ctx: AppContext, teamId: number | null): Promise<number> {
  if (!ctx.boss) return 0;
  const now = ctx.now();
  const waiting = await repo.waitingJobs(ctx.db, teamId, now);
  const byTeam = new Map<number, string[]>();
  for (const j of waiting) byTeam.set(j.team_id, [...(byTeam.get(j.team_id) ?? []), j.id]);
  let woken = 0;
  for (const [team, ids] of byTeam) {
    const free = EXPORT_LIMITS.runningPerTeam - (await repo.runningCount(ctx.db, team, now));
    for (const id of ids.slice(0, Math.max(0, free))) {
      await enqueue(ctx.boss, dataExport, { jobId: id });
      woken++;
    }
  }
  return woken;
}

export const dataExportSweep = defineJob({
  name: 'data-export-sweep',
  payload: z.object({}).strict(),
  async handler(ctx) {
    return { woken: await wakeExports(ctx, null) };
  },
  singletonKey: () => 'data-export-sweep',
  retry: { limit: 1, delaySeconds: 30, backoff: false },
  expireInSeconds: 120,
  schedule: { cron: '* * * * *', payload: {} },
});

/**
 * Files past their keep time: deleted from the storage, their jobs marked
 * expired; then the orphaned temporaries. What was removed is in the audit
 * log and in the job's result (the runner logs it).
 */
export async function expireExports(
  ctx: AppContext,
): Promise<{ expired: number; temporaries: SweptTemporaries }> {
  const storage = exportStorage(ctx.config);
  let expired = 0;
  for (const job of await repo.dueForExpiry(ctx.db, ctx.now())) {
    if (job.storage_key) await storage.remove(job.storage_key);
    const marked = await inTransaction(ctx, async ({ db }) => {
      if (!(await repo.markExpired(db, job.id, ctx.now()))) return false;
      await recordAudit(db, {
        userId: null,
        teamId: job.team_id,
        action: 'data_export.expired',
        entityType: 'export_job',
        entityId: job.id,
        after: { status: 'expired', storageKey: job.storage_key },
      });
      return true;
    });
    if (marked) expired++;
  }
  return { expired, temporaries: await sweepOrphanedTemporaries(ctx) };
}

export const dataExportExpiry = defineJob({
  name: 'data-export-expiry',
  payload: z.object({}).strict(),
  handler: (ctx) => expireExports(ctx),
  singletonKey: () => 'data-export-expiry',
  retry: { limit: 3, delaySeconds: 600, backoff: true },
  expireInSeconds: 3_600,
  schedule: { cron: '15 4 * * *', payload: {} },
});
