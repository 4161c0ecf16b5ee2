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
 *
 * Intraday metrics (day rows, decision 039) are purged by the same rule,
 * sample by sample: a month partition whose every day has expired for every
 * team × metric in it is dropped (one transaction: the drop and an audit row
 * per pair, entity type 'intraday_days', with its month), then per pair the
 * day rows wholly before the cutoff are deleted in batches of days and the
 * days across the cutoff lose the samples before it. `deleted` counts
 * samples, as it counts readings.
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '../../audit/audit-log.js';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import {
  deleteBatch,
  deleteIntradayBatch,
  dropIntradayMonth,
  intradayMonths,
  monthEndsBy,
  type PurgeTarget,
  purgeTargets,
  trimIntradayEdge,
} from './repo.js';

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
  const runId = randomUUID();
  const targets = await purgeTargets(db);
  const pairKey = (p: { teamId: number; metricKey: string }) => `${p.teamId}:${p.metricKey}`;
  const cutoffOf = new Map(
    targets.map((x) => [pairKey(x), new Date(now.getTime() - x.retentionDays * DAY_MS)] as const),
  );
  const byPair = new Map<string, PurgedPair>();
  const tally = (target: PurgeTarget, deleted: number) => {
    const key = pairKey(target);
    const pair = byPair.get(key) ?? {
      ...target,
      cutoff: cutoffOf.get(key)!.toISOString(),
      deleted: 0,
      batches: 0,
    };
    pair.deleted += deleted;
    pair.batches += 1;
    byPair.set(key, pair);
    return pair;
  };
  /** One step of the purge and its audit row, in one transaction: nothing goes unaccounted. */
  const audited = (
    tx: { db: Db },
    target: PurgeTarget,
    deleted: number,
    detail: { entityType: string } & Record<string, unknown>,
  ) => {
    const { entityType, ...rest } = detail;
    const pair = tally(target, deleted);
    return recordAudit(tx.db, {
      userId: null,
      teamId: target.teamId,
      action: 'readings.retention_purge',
      entityType,
      entityId: pairKey(target),
      after: {
        ...target,
        cutoff: pair.cutoff,
        runId,
        batch: pair.batches,
        deleted,
        deletedInRun: pair.deleted,
        ...rest,
      },
    });
  };
  const targetOf = new Map(targets.map((x) => [pairKey(x), x] as const));

  // Intraday months whose every day has expired for every pair in them go whole: a partition
  // drop, whose cost does not grow with the month's rows (decision 039).
  for (const m of await intradayMonths(db)) {
    const endsBy = monthEndsBy(m.month);
    const expired =
      m.pairs.length > 0 && m.pairs.every((p) => (cutoffOf.get(pairKey(p)) ?? new Date(0)) >= endsBy);
    if (!expired) continue;
    await inTransaction({ db }, async (tx) => {
      for (const d of await dropIntradayMonth(tx.db, m.month))
        await audited(tx, targetOf.get(pairKey(d))!, d.samples, {
          entityType: 'intraday_days',
          month: m.month.slice(0, 7),
          days: d.days,
        });
    });
  }

  for (const target of targets) {
    const cutoff = cutoffOf.get(pairKey(target))!;
    // Readings stored one per row, in batches.
    for (;;) {
      const n = await inTransaction({ db }, async (tx) => {
        const removed = await deleteBatch(tx.db, target, cutoff, batchSize);
        if (removed > 0) await audited(tx, target, removed, { entityType: 'device_readings' });
        return removed;
      });
      if (n < batchSize) break;
    }
    // Intraday days wholly before the cutoff, in batches of days; then the days across it.
    for (;;) {
      const { days } = await inTransaction({ db }, async (tx) => {
        const removed = await deleteIntradayBatch(tx.db, target, cutoff, batchSize);
        if (removed.days > 0)
          await audited(tx, target, removed.samples, { entityType: 'intraday_days', days: removed.days });
        return removed;
      });
      if (days < batchSize) break;
    }
    await inTransaction({ db }, async (tx) => {
      const trimmed = await trimIntradayEdge(tx.db, target, cutoff);
      if (trimmed > 0) await audited(tx, target, trimmed, { entityType: 'intraday_days', edge: true });
    });
  }
  // In the targets' order (team, then metric), whichever step removed a pair's first rows.
  const order = new Map(targets.map((x, i) => [pairKey(x), i] as const));
  const purged = [...byPair.values()]
    .filter((p) => p.deleted > 0)
    .sort((a, b) => order.get(pairKey(a))! - order.get(pairKey(b))!);
  return {
    purged,
    total: purged.reduce((sum, p) => sum + p.deleted, 0),
    ms: Math.round(performance.now() - started),
  };
}
