/*
 * The retention purge, shared by the daily job and `npm run cli -- purge-now`:
 * for every team and metric, delete the readings measured before
 * now − retention, in batches, and write one audit row per team × metric that
 * lost readings (action 'readings.retention_purge', entity `teamId:metricKey`, after =
 * { metricKey, retentionDays, cutoff, deleted, batches }). One row per pair
 * rather than one per run keeps each team's own audit trail complete (audit
 * rows are read per team). A reading measured exactly at the cutoff instant
 * stays: retention N days keeps readings of the last N × 24 hours inclusive.
 */
import { recordAudit } from '../../audit/audit-log.js';
import type { Db } from '../../db/database.js';
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
  for (const target of await purgeTargets(db)) {
    const cutoff = new Date(now.getTime() - target.retentionDays * DAY_MS);
    let deleted = 0;
    let batches = 0;
    for (;;) {
      const n = await deleteBatch(db, target, cutoff, batchSize);
      if (n > 0) batches += 1;
      deleted += n;
      if (n < batchSize) break;
    }
    if (deleted === 0) continue;
    const pair = { ...target, cutoff: cutoff.toISOString(), deleted, batches };
    // Written after the pair's batches: if the process dies between, the readings are gone
    // unrecorded, and the next run records only what it removes itself.
    await recordAudit(db, {
      userId: null,
      teamId: target.teamId,
      action: 'readings.retention_purge',
      entityType: 'device_readings',
      entityId: `${target.teamId}:${target.metricKey}`,
      after: pair,
    });
    purged.push(pair);
  }
  return {
    purged,
    total: purged.reduce((sum, p) => sum + p.deleted, 0),
    ms: Math.round(performance.now() - started),
  };
}
