/*
 * The export's SQL (issue #12 item 3). One pooled connection holds one
 * REPEATABLE READ, READ ONLY transaction for the whole archive, so the count,
 * the lookups and every data file see the same snapshot: a sync writing
 * during the export changes nothing in it, and the manifest's counts are the
 * files' rows.
 *
 * The rows leave PostgreSQL as `COPY (SELECT …) TO STDOUT (FORMAT binary)`
 * through pg-copy-streams (with a leaner parser, lean-copy-to.ts), one COPY
 * per participant (and metric, for separate tabs), participants in code
 * order. Each is a range scan of the primary key (participant_id,
 * metric_key, measured_at), which is the export order: no sort and no new
 * index. PostgreSQL sends the stored values as they are, in binary; Node
 * writes their text (binary-copy-csv.ts). Formatting in PostgreSQL kept its
 * one core busy while Node waited: it made the export 0.66× of the bench's
 * baseline; formatting in Node overlaps it with PostgreSQL's scan.
 * COPY takes no bind parameters: the few values written into its text are
 * integers, dates checked against YYYY-MM-DD and strings passed through the
 * driver's escapeLiteral.
 */
import type { Readable } from 'node:stream';
import { DISPLAY_UNITS, isIntradayMetric } from '@trialwear/contract';
import { type Db, poolOf } from '../../../db/database.js';
import { BINARY_COLUMNS, type RowConstants } from './binary-copy-csv.js';
import { csvField } from './csv-text.js';
import { leanCopyTo } from './lean-copy-to.js';

/**
 * The first columns are the issue's, in its order; value_json, device and
 * source follow, then the value as the pages show it where they show another
 * unit (display_value, display_unit: DISPLAY_UNITS, decision 044), added last
 * so that every earlier column keeps its place.
 */
export const DATA_COLUMNS = [
  'participant_code',
  'metric_key',
  'local_date',
  'local_time',
  'utc_offset',
  'measured_at_utc',
  'value',
  'unit',
  'value_json',
  'device',
  'source',
  'display_value',
  'display_unit',
] as const;

/**
 * A reading's local date lies within this much of its UTC instant (UTC
 * offsets are -12:00 … +14:00; a night's sleep is stored on the local date it
 * ends, at its start). The instant window is only a bound for the index scan;
 * the local-date condition decides.
 */
const WINDOW_MARGIN_MS = 48 * 3600_000;

export interface ExportScope {
  teamId: number;
  participantIds: number[];
  metricKeys: string[];
  /** Participant-local dates, inclusive, YYYY-MM-DD. */
  startDate: string;
  endDate: string;
  /** A de-identified export: the days each participant's dates move by (date-shift.ts). */
  shiftDays?: ReadonlyMap<number, number>;
}

export interface ExportParticipant {
  id: number;
  /** The participant code; a participant without one is `#<id>`, as the portal shows it. */
  code: string;
}

export interface ExportMetric {
  key: string;
  name: string;
  unit: string | null;
  description: string | null;
  deviceType: string | null;
  /** Providers of the exported participants' devices of this metric's device type, e.g. 'fitbit; omron'. */
  source: string;
}

export interface ExportSnapshot {
  /** The team's participants among those asked, in export order (by code). */
  participants: ExportParticipant[];
  /** The metrics asked, in export order (by key, in the database's order of metric_key), described from the metric catalog. */
  metrics: ExportMetric[];
  /** The devices linked to these participants (the FHIR export's Device resources). */
  devices: { id: number; participantId: number; provider: string; name: string | null }[];
  /**
   * The progress denominator: readings of these participants and metrics in
   * the instant window (an index-only count on the primary key), an upper
   * bound of the rows exported.
   */
  countUpperBound(): Promise<number>;
  /**
   * The rows of one participant and some of the metrics, by metric (in
   * `metrics` order) then time, as the CopyData messages of a binary COPY of
   * BINARY_COLUMNS, with what is constant across them as CSV fields
   * (`constants`: binary-copy-csv.ts writes the CSV lines) and as text, a
   * NULL empty (`text`: binary-copy-columns.ts, for Parquet).
   * `done` resolves with the row count PostgreSQL reports once the COPY completed.
   */
  copyRows(
    participant: ExportParticipant,
    metrics: ExportMetric[],
  ): { stream: Readable; done: Promise<number>; constants: RowConstants; text: RowConstants };
  /** Ends the transaction and returns the connection; with an error (abort, failure) the connection is destroyed, which stops a running COPY at once. */
  close(error?: unknown): Promise<void>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Metric keys (in export order) as runs stored in one table: intraday day rows or readings. */
function tableRuns(keys: readonly string[]) {
  const runs: { intraday: boolean; keys: string[] }[] = [];
  for (const key of keys) {
    const intraday = isIntradayMetric(key);
    const last = runs.at(-1);
    if (last && last.intraday === intraday && !intraday) last.keys.push(key);
    else runs.push({ intraday, keys: [key] });
  }
  return runs;
}

export async function openExportSnapshot(db: Db, scope: ExportScope): Promise<ExportSnapshot> {
  if (!DATE.test(scope.startDate) || !DATE.test(scope.endDate))
    throw new Error('export dates must be YYYY-MM-DD');
  const ids = scope.participantIds.map((id) => {
    if (!Number.isSafeInteger(id)) throw new Error('participant ids must be integers');
    return id;
  });
  const requestedKeys = [...new Set(scope.metricKeys)];
  const lo = new Date(Date.parse(`${scope.startDate}T00:00:00Z`) - WINDOW_MARGIN_MS).toISOString();
  const hi = new Date(Date.parse(`${scope.endDate}T00:00:00Z`) + 86_400_000 + WINDOW_MARGIN_MS).toISOString();

  const client = await poolOf(db).connect();
  let released = false;
  const release = (error?: unknown) => {
    if (released) return;
    released = true;
    client.release(
      error instanceof Error ? error : error === undefined ? undefined : new Error(String(error)),
    );
  };
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    // Every COPY reads one participant's rows in primary-key order (metric,
    // instant), which is the export's order: the planner is kept from a
    // bitmap scan or sequential scan plus a sort of the formatted rows, which
    // cost three times the CPU (bench/export).
    await client.query('SET LOCAL enable_sort = off');
    await client.query('SET LOCAL enable_bitmapscan = off');
    await client.query('SET LOCAL enable_seqscan = off');
    await client.query('SET LOCAL max_parallel_workers_per_gather = 0');
    // Metric keys in the database's order of metric_key: the order the index returns them in.
    const keys = (
      await client.query<{ k: string }>('SELECT k FROM unnest($1::text[]) AS k ORDER BY k', [requestedKeys])
    ).rows.map((r) => r.k);

    const participants = (
      await client.query<{ id: number; code: string }>(
        `SELECT id, coalesce(participant_code, '#' || id) AS code
           FROM participants WHERE team_id = $1 AND id = ANY($2::int[])
          ORDER BY participant_code COLLATE "C" NULLS LAST, id`,
        [scope.teamId, ids],
      )
    ).rows;
    const devices = (
      await client.query<{
        id: number;
        participant_id: number;
        provider: string;
        device_name: string | null;
        device_type: string | null;
      }>(
        `SELECT pd.id, pd.participant_id, pd.provider, g.device_name, g.device_type
           FROM participant_devices pd LEFT JOIN global_device_catalog g ON g.id = pd.global_device_catalog_id
          WHERE pd.team_id = $1 AND pd.participant_id = ANY($2::int[])
          ORDER BY pd.id`,
        [scope.teamId, ids],
      )
    ).rows;
    const catalog = (
      await client.query<{
        metric_key: string;
        metric_name: string;
        units: string | null;
        description: string | null;
        device_type: string;
      }>(
        `SELECT metric_key, metric_name, units, description, device_type FROM metric_catalog
          WHERE metric_key = ANY($1::text[]) ORDER BY metric_key, id`,
        [keys],
      )
    ).rows;
    const manufacturers = (
      await client.query<{ device_type: string; manufacturers: string }>(
        `SELECT device_type, string_agg(DISTINCT lower(manufacturer), '; ' ORDER BY lower(manufacturer)) AS manufacturers
           FROM global_device_catalog GROUP BY device_type`,
      )
    ).rows;

    const metrics: ExportMetric[] = keys.map((key) => {
      const c = catalog.find((m) => m.metric_key === key);
      const deviceType = c?.device_type ?? null;
      const linked = [
        ...new Set(
          devices.filter((d) => deviceType !== null && d.device_type === deviceType).map((d) => d.provider),
        ),
      ].sort();
      const source =
        linked.length > 0
          ? linked.join('; ')
          : (manufacturers.find((m) => m.device_type === deviceType)?.manufacturers ?? '');
      return {
        key,
        name: c?.metric_name ?? key,
        unit: c?.units ?? null,
        description: c?.description ?? null,
        deviceType,
        source,
      };
    });

    const lit = (v: string | null) => (v === null ? 'NULL' : client.escapeLiteral(v));
    const rangeCondition = `r.measured_at >= ${lit(lo)}::timestamptz AND r.measured_at < ${lit(hi)}::timestamptz`;

    return {
      participants,
      metrics,
      devices: devices.map((d) => ({
        id: d.id,
        participantId: d.participant_id,
        provider: d.provider,
        name: d.device_name,
      })),
      countUpperBound: async () => {
        const r = await client.query<{ n: string }>(
          `SELECT (SELECT count(*) FROM device_readings r
                    WHERE r.participant_id = ANY($1::int[]) AND r.metric_key = ANY($2::text[]) AND ${rangeCondition})
                + (SELECT coalesce(sum(d.value_count), 0) FROM intraday_days d
                    WHERE d.participant_id = ANY($1::int[]) AND d.metric_key = ANY($2::text[])
                      AND d.local_date BETWEEN $3::date AND $4::date) AS n`,
          [participants.map((p) => p.id), keys, scope.startDate, scope.endDate],
        );
        return Number(r.rows[0]?.n ?? 0);
      },
      copyRows: (participant, ofMetrics) => {
        const where = `r.participant_id = ${participant.id} AND r.team_id = ${Number(scope.teamId)}
             AND r.local_date BETWEEN ${lit(scope.startDate)}::date AND ${lit(scope.endDate)}::date`;
        // Each run of metrics from one table, in metric order; Append reads its parts in the
        // order written (no parallel plan: max_parallel_workers_per_gather is 0 here).
        const parts = tableRuns(ofMetrics.map((m) => m.key)).map(({ intraday, keys: run }) => {
          const metricCondition =
            run.length === 1
              ? `r.metric_key = ${lit(run[0]!)}`
              : `r.metric_key = ANY(ARRAY[${run.map(lit).join(', ')}]::text[])`;
          return intraday
            ? `(SELECT ${BINARY_COLUMNS.join(', ')} FROM intraday_readings r
                 WHERE ${where} AND ${metricCondition}
                 ORDER BY r.metric_key, r.local_date, r.sample_index)`
            : `(SELECT ${BINARY_COLUMNS.join(', ')} FROM device_readings r
                 WHERE ${where} AND ${metricCondition} AND ${rangeCondition}
                 ORDER BY r.metric_key, r.measured_at)`;
        });
        const text = `COPY (${parts.join(' UNION ALL ')}) TO STDOUT (FORMAT binary)`;
        const shiftDays = scope.shiftDays?.get(participant.id) ?? 0;
        const displayOf = new Map(
          ofMetrics.flatMap((m) => {
            const d = DISPLAY_UNITS[m.key];
            return d ? [[m.key, d] as const] : [];
          }),
        );
        const constants: RowConstants = {
          shiftDays,
          code: csvField(participant.code),
          unitOf: new Map(ofMetrics.map((m) => [m.key, csvField(m.unit)])),
          displayOf: new Map([...displayOf].map(([k, d]) => [k, { ...d, unit: csvField(d.unit) }])),
          // A reading of another participant's link cannot occur (the link's participant is the
          // reading's); a link without a catalog device has no name.
          deviceOf: new Map(
            devices
              .filter((d) => d.participant_id === participant.id)
              .map((d) => [d.id, { name: csvField(d.device_name), provider: csvField(d.provider) }]),
          ),
        };
        const links = devices.filter((d) => d.participant_id === participant.id);
        const plain: RowConstants = {
          shiftDays,
          code: participant.code,
          unitOf: new Map(ofMetrics.map((m) => [m.key, m.unit ?? ''])),
          displayOf,
          deviceOf: new Map(links.map((d) => [d.id, { name: d.device_name ?? '', provider: d.provider }])),
        };
        const stream = leanCopyTo(text, { highWaterMark: 256 * 1024 });
        // pg calls the active query's handleReadyForQuery once the COPY's
        // CommandComplete ("COPY n", which sets rowCount) has been read.
        const done = new Promise<number>((resolve, reject) => {
          const q = stream as unknown as { handleReadyForQuery: () => void };
          q.handleReadyForQuery = () => resolve(stream.rowCount);
          stream.once('error', reject);
        });
        done.catch(() => {}); // the caller awaits it; an early failure surfaces there or on the stream
        client.query(stream);
        return { stream: stream as Readable, done, constants, text: plain };
      },
      close: async (error?: unknown) => {
        if (released) return;
        if (error !== undefined) {
          release(error);
          return;
        }
        try {
          await client.query('COMMIT');
          release();
        } catch (err) {
          release(err);
          throw err;
        }
      },
    };
  } catch (err) {
    release(err);
    throw err;
  }
}
