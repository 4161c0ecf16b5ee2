/*
 * SQL of the retention purge: which (team, metric) pairs hold readings and how
 * long each may keep them, and the bounded, index-driven delete of one pair's
 * old readings.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { effectiveRetentionDays } from '../../features/data-retention/effective-retention.js';

export interface PurgeTarget {
  teamId: number;
  metricKey: string;
  /** The days this team keeps this metric: see the rule in `purgeTargets`. */
  retentionDays: number;
}

/**
 * Every (team, metric) pair that has readings, with its retention (the rule
 * of features/data-retention/effective-retention.ts, which the Data Storage &
 * Retention page shows too).
 *
 * The pairs come from a skip scan of device_readings_team_metric_time_idx
 * (one index probe per distinct pair, not a scan of the table), so this costs
 * the number of pairs, not the number of readings.
 */
export async function purgeTargets(db: Db): Promise<PurgeTarget[]> {
  const r = await targetsQuery().execute(db);
  return r.rows.map((row) => ({
    teamId: row.team_id,
    metricKey: row.metric_key,
    retentionDays: row.retention_days,
  }));
}

/** The statement of `purgeTargets` (exported so the test can EXPLAIN it). */
export function targetsQuery() {
  return sql<{ team_id: number; metric_key: string; retention_days: number }>`
    WITH RECURSIVE pairs AS (
      (SELECT team_id, metric_key FROM device_readings ORDER BY team_id, metric_key LIMIT 1)
      UNION ALL
      SELECT n.team_id, n.metric_key
      FROM pairs p
      CROSS JOIN LATERAL (
        SELECT team_id, metric_key FROM device_readings r
        WHERE (r.team_id, r.metric_key) > (p.team_id, p.metric_key)
        ORDER BY team_id, metric_key LIMIT 1
      ) n
    )
    SELECT p.team_id, p.metric_key,
           ${effectiveRetentionDays(sql.ref('p.team_id'), sql.ref('t.retention_days'), sql.ref('p.metric_key'))}
             AS retention_days
    FROM pairs p
    JOIN teams t ON t.id = p.team_id
    ORDER BY p.team_id, p.metric_key`;
}

/**
 * Deletes at most `limit` readings of one team and metric measured before
 * `cutoff`; answers how many went. The inner SELECT walks
 * device_readings_team_metric_time_idx from the oldest reading up to the cutoff
 * and stops after `limit` rows, and the outer DELETE reaches those rows by
 * their ctid (a TID scan), so a batch touches only the rows it removes, however
 * large the table. Each call is its own statement and transaction: locks and
 * WAL stay bounded, and the sync can upsert newer readings meanwhile.
 */
export async function deleteBatch(
  db: Db,
  target: { teamId: number; metricKey: string },
  cutoff: Date,
  limit: number,
): Promise<number> {
  const r = await batchDelete(target, cutoff, limit).execute(db);
  return Number(r.numAffectedRows ?? 0n);
}

/** The statement of one batch (exported so the test can EXPLAIN the very statement the purge runs). */
export function batchDelete(target: { teamId: number; metricKey: string }, cutoff: Date, limit: number) {
  return sql`
    DELETE FROM device_readings
    WHERE ctid = ANY (ARRAY(
      SELECT ctid FROM device_readings
      WHERE team_id = ${target.teamId} AND metric_key = ${target.metricKey} AND measured_at < ${cutoff}
      ORDER BY team_id, metric_key, measured_at
      LIMIT ${limit}))`;
}
