/*
 * SQL of the retention purge: which (team, metric) pairs hold readings and how
 * long each may keep them, and the bounded, index-driven delete of one pair's
 * old readings.
 */
import { type RawBuilder, sql } from 'kysely';
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

/**
 * A recursive CTE `name` of the distinct (team_id, metric_key) pairs of
 * `table`, by a skip scan of its (team_id, metric_key, …) index: one probe per
 * pair. `where` narrows the rows (a month of intraday days).
 */
function pairsScan(name: string, table: string, where: RawBuilder<unknown> = sql`true`) {
  const cte = sql.table(name);
  const from = sql.table(table);
  return sql`${cte} AS (
      (SELECT team_id, metric_key FROM ${from} WHERE ${where} ORDER BY team_id, metric_key LIMIT 1)
      UNION ALL
      SELECT n.team_id, n.metric_key
      FROM ${cte} p
      CROSS JOIN LATERAL (
        SELECT team_id, metric_key FROM ${from} x
        WHERE (x.team_id, x.metric_key) > (p.team_id, p.metric_key) AND ${where}
        ORDER BY team_id, metric_key LIMIT 1
      ) n
    )`;
}

/** The statement of `purgeTargets` (exported so the test can EXPLAIN it). */
export function targetsQuery() {
  return sql<{ team_id: number; metric_key: string; retention_days: number }>`
    WITH RECURSIVE ${pairsScan('pairs', 'device_readings')},
    -- The same skip scan over the intraday day rows (intraday_days_team_metric_date_idx).
    ${pairsScan('day_pairs', 'intraday_days')}
    SELECT p.team_id, p.metric_key,
           ${effectiveRetentionDays(sql.ref('p.team_id'), sql.ref('t.retention_days'), sql.ref('p.metric_key'))}
             AS retention_days
    FROM (SELECT team_id, metric_key FROM pairs UNION SELECT team_id, metric_key FROM day_pairs) p
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

/* Intraday day rows (decision 039) ------------------------------------------ */

const DAY_MS = 86_400_000;
/** A local date's instants lie within this of its UTC midnight (offsets −12:00 … +14:00), with room. */
const LOCAL_MARGIN_DAYS = 2;
const dateOf = (t: number) => new Date(t).toISOString().slice(0, 10);

export interface IntradayMonth {
  /** The month's first day, YYYY-MM-DD. */
  month: string;
  /** The (team, metric) pairs with day rows in it. */
  pairs: { teamId: number; metricKey: string }[];
}

/**
 * The month partitions of intraday_days, oldest first, each with the pairs it
 * holds (a skip scan of the month's index: one probe per pair).
 */
export async function intradayMonths(db: Db): Promise<IntradayMonth[]> {
  const parts = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'intraday_days'::regclass ORDER BY c.relname`.execute(db);
  const months: IntradayMonth[] = [];
  for (const { name } of parts.rows) {
    const m = /^intraday_days_(\d{4})_(\d{2})$/.exec(name);
    if (!m) continue;
    const month = `${m[1]}-${m[2]}-01`;
    // Through the parent (the application role has no grant on a partition), pruned to the month.
    const inMonth = sql`local_date >= ${month}::date AND local_date < (${month}::date + interval '1 month')::date`;
    const pairs = await sql<{ team_id: number; metric_key: string }>`
      WITH RECURSIVE ${pairsScan('pairs', 'intraday_days', inMonth)}
      SELECT team_id, metric_key FROM pairs`.execute(db);
    months.push({
      month,
      pairs: pairs.rows.map((r) => ({ teamId: r.team_id, metricKey: r.metric_key })),
    });
  }
  return months;
}

/** Every instant of a month's local dates lies before this (its last local date ends by then). */
export function monthEndsBy(month: string): Date {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1) + LOCAL_MARGIN_DAYS * DAY_MS);
}

/** Drops one expired month partition (its days taken off sync health first): samples per pair. */
export async function dropIntradayMonth(db: Db, month: string) {
  const r = await sql<{ team_id: number; metric_key: string; samples: string; days: string }>`
    SELECT * FROM intraday_drop_month(${month}::date)`.execute(db);
  return r.rows.map((x) => ({
    teamId: x.team_id,
    metricKey: x.metric_key,
    samples: Number(x.samples),
    days: Number(x.days),
  }));
}

/**
 * Deletes at most `limit` day rows of one team and metric whose every sample
 * is before `cutoff` (newest_at < cutoff), walking the team × metric × date
 * index from the oldest day; answers the samples removed.
 */
export async function deleteIntradayBatch(
  db: Db,
  target: { teamId: number; metricKey: string },
  cutoff: Date,
  limit: number,
): Promise<{ days: number; samples: number }> {
  const lastDate = dateOf(cutoff.getTime() + LOCAL_MARGIN_DAYS * DAY_MS);
  const r = await sql<{ value_count: number }>`
    DELETE FROM intraday_days d
    USING (
      SELECT participant_id, metric_key, local_date FROM intraday_days
      WHERE team_id = ${target.teamId} AND metric_key = ${target.metricKey}
        AND local_date <= ${lastDate}::date AND newest_at < ${cutoff}
      ORDER BY team_id, metric_key, local_date
      LIMIT ${limit}) x
    WHERE d.participant_id = x.participant_id AND d.metric_key = x.metric_key AND d.local_date = x.local_date
      -- Repeated on the outer table so that PostgreSQL prunes the later months at plan time: the
      -- join alone would probe every partition, and the daily purge would grow with the store.
      AND d.metric_key = ${target.metricKey} AND d.local_date <= ${lastDate}::date
    RETURNING d.value_count`.execute(db);
  return { days: r.rows.length, samples: r.rows.reduce((n, x) => n + x.value_count, 0) };
}

/**
 * The days across the cutoff: their samples before it become NULL (the
 * array keeps its grid), the counts follow. Answers the samples removed.
 */
export async function trimIntradayEdge(
  db: Db,
  target: { teamId: number; metricKey: string },
  cutoff: Date,
): Promise<number> {
  const from = dateOf(cutoff.getTime() - LOCAL_MARGIN_DAYS * DAY_MS);
  const to = dateOf(cutoff.getTime() + LOCAL_MARGIN_DAYS * DAY_MS);
  const r = await sql<{ removed: number }>`
    WITH edge AS (
      SELECT participant_id, metric_key, local_date, value_count AS before,
        -- Samples at indexes below k are before the cutoff (one at the cutoff itself stays).
        ceil(extract(epoch FROM ${cutoff}::timestamptz - start_at) / step_seconds)::int AS k
      FROM intraday_days
      WHERE team_id = ${target.teamId} AND metric_key = ${target.metricKey}
        AND local_date BETWEEN ${from}::date AND ${to}::date
        AND start_at < ${cutoff} AND newest_at >= ${cutoff}
      FOR UPDATE
    ), trimmed AS (
      SELECT e.*, array_fill(NULL::float8, ARRAY[e.k]) || d.samples[e.k + 1:] AS samples
      FROM edge e JOIN intraday_days d USING (participant_id, metric_key, local_date)
      WHERE d.local_date BETWEEN ${from}::date AND ${to}::date
    )
    UPDATE intraday_days d SET
      samples = t.samples,
      value_count = (SELECT count(v)::int FROM unnest(t.samples) v),
      worn_count = (SELECT count(*)::int FROM unnest(t.samples) v
                    WHERE v IS NOT NULL AND device_reading_worn(d.metric_key, v))
    FROM trimmed t
    WHERE d.participant_id = t.participant_id AND d.metric_key = t.metric_key AND d.local_date = t.local_date
      AND d.local_date BETWEEN ${from}::date AND ${to}::date AND t.k > 0
    RETURNING t.before - d.value_count AS removed`.execute(db);
  return r.rows.reduce((n, x) => n + x.removed, 0);
}
