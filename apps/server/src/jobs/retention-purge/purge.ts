/*
 * The retention purge, shared by the daily job and `npm run cli -- purge-now`:
 * for every team and metric, delete the readings measured before
 * now − retention, in batches. Each batch is one transaction: its DELETE and
 * its audit row (action 'readings.retention_purge', entity `teamId:metricKey`,
 * after = { teamId, metricKey, retentionDays, cutoff, runId, batch, deleted,
 * deletedInRun }) commit together or not at all, so a purge killed at any
 * point leaves every reading it removed accounted for (issue 27 §4: with one
 * row per pair written after its batches, a purge killed mid-pair left the
 * committed batches unaudited). `deleted` is the batch's count, so the sum
 * over the rows is the readings removed; `deletedInRun` is the running count
 * of the pair in this run (runId), so a pair's last row reads as its total.
 * The audit log is append-only (triggers, hash chain), hence rows per batch
 * rather than one row updated (docs/decisions/007). Audit rows are read per
 * team, so each team's trail is complete on its own. A reading measured
 * exactly at the cutoff instant stays: retention N days keeps readings of the
 * last N × 24 hours inclusive.
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '../../audit/audit-log.js';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import { deleteBatch, purgeTargets } from './repo.js';

export const PURGE_BATCH_SIZE = 10_000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PurgedPair {
  teamId: number;
  metricKey: string;
  retentionDays: number;
  cutoff: string;
  deleted: number;
  batches: number;
}

export interface PurgeResult {
  purged: PurgedPair[];
  total: number;
  ms: number;
}

export async function purgeExpiredReadings(
  db: Db,
  now: Date,
  opts: { batchSize?: number } = {},
): Promise<PurgeResult> {
  const started = performance.now();
  const batchSize = opts.batchSize ?? PURGE_BATCH_SIZE;
  const purged: PurgedPair[] = [];
  const runId = randomUUID();
  for (const target of await purgeTargets(db)) {
    const cutoff = new Date(now.getTime() - target.retentionDays * DAY_MS).toISOString();
    let deleted = 0;
    let batches = 0;
    for (;;) {
      const n = await inTransaction({ db }, async (tx) => {
        const removed = await deleteBatch(tx.db, target, new Date(cutoff), batchSize);
        if (removed === 0) return 0;
        // In the batch's transaction: a batch is gone only with its audit row.
        await recordAudit(tx.db, {
          userId: null,
          teamId: target.teamId,
          action: 'readings.retention_purge',
          entityType: 'device_readings',
          entityId: `${target.teamId}:${target.metricKey}`,
          after: {
            ...target,
            cutoff,
            runId,
            batch: batches + 1,
            deleted: removed,
            deletedInRun: deleted + removed,
          },
        });
        return removed;
      });
      if (n > 0) batches += 1;
      deleted += n;
      if (n < batchSize) break;
    }
    if (deleted > 0) purged.push({ ...target, cutoff, deleted, batches });
  }
  return {
    purged,
    total: purged.reduce((sum, p) => sum + p.deleted, 0),
    ms: Math.round(performance.now() - started),
  };
}
