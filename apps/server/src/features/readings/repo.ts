/*
 * The readings table's write path: the one function the background sync (and
 * bench/ingest) stores readings with. A batch is sent as one array per column
 * and spread by unnest() into one INSERT … ON CONFLICT DO UPDATE: one
 * statement and ten parameters per chunk, whatever the number of rows, so
 * PostgreSQL parses and plans once and the parameter limit never applies.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export interface ReadingRow {
  participant_id: number;
  team_id: number;
  metric_key: string;
  /** The UTC instant of the reading. */
  measured_at: Date;
  /** The participant's local date, 'YYYY-MM-DD'. */
  local_date: string;
  /** The participant's local wall-clock time, 'HH:MM:SS', when the provider gives one. */
  local_time?: string | null;
  utc_offset_minutes?: number | null;
  /** In the provider's unit; conversions happen only at display and export. */
  value?: number | null;
  value_json?: unknown;
  participant_device_id?: number | null;
  /** Provenance: the link's provider and when the reading was fetched (the sync sets both). */
  provider?: string | null;
  fetched_at?: Date | null;
}

/** Rows per statement: bounds one statement's memory and lock time; larger batches are chunked. */
export const UPSERT_CHUNK = 10_000;

/**
 * Stores readings idempotently: a reading (participant, metric, instant)
 * fetched again updates its row only when something changed, so a re-fetch
 * writes nothing and the same reading is never stored twice. Within one call
 * a repeated key keeps its last row (PostgreSQL refuses to update one row
 * twice in a statement). Answers the rows inserted or changed.
 */
export async function upsertReadings(db: Db, rows: readonly ReadingRow[]): Promise<number> {
  let written = 0;
  for (const n of (await upsertReadingsByMetric(db, rows)).values()) written += n;
  return written;
}

/** upsertReadings, answering the rows inserted or changed per metric (the sync keeps them on its cursors). */
export async function upsertReadingsByMetric(
  db: Db,
  rows: readonly ReadingRow[],
): Promise<Map<string, number>> {
  const byKey = new Map<string, ReadingRow>();
  for (const r of rows) byKey.set(`${r.participant_id}|${r.metric_key}|${r.measured_at.getTime()}`, r);
  const unique = [...byKey.values()];
  const changed = new Map<string, number>();
  for (let i = 0; i < unique.length; i += UPSERT_CHUNK) {
    const chunk = unique.slice(i, i + UPSERT_CHUNK);
    const col = <T>(f: (r: ReadingRow) => T) => chunk.map(f);
    const r = await sql<{ metric_key: string }>`
      INSERT INTO device_readings AS d (participant_id, team_id, metric_key, measured_at, local_date,
        local_time, utc_offset_minutes, value, value_json, participant_device_id, provider, fetched_at)
      SELECT * FROM unnest(
        ${col((r) => r.participant_id)}::int[],
        ${col((r) => r.team_id)}::int[],
        ${col((r) => r.metric_key)}::text[],
        ${col((r) => r.measured_at.toISOString())}::timestamptz[],
        ${col((r) => r.local_date)}::date[],
        ${col((r) => r.local_time ?? null)}::time[],
        ${col((r) => r.utc_offset_minutes ?? null)}::smallint[],
        ${col((r) => r.value ?? null)}::float8[],
        ${col((r) => (r.value_json === undefined || r.value_json === null ? null : JSON.stringify(r.value_json)))}::jsonb[],
        ${col((r) => r.participant_device_id ?? null)}::int[],
        ${col((r) => r.provider ?? null)}::text[],
        ${col((r) => r.fetched_at?.toISOString() ?? null)}::timestamptz[])
      ON CONFLICT (participant_id, metric_key, measured_at) DO UPDATE SET
        local_date = EXCLUDED.local_date,
        local_time = EXCLUDED.local_time,
        utc_offset_minutes = EXCLUDED.utc_offset_minutes,
        value = EXCLUDED.value,
        value_json = EXCLUDED.value_json,
        participant_device_id = EXCLUDED.participant_device_id,
        provider = EXCLUDED.provider,
        fetched_at = EXCLUDED.fetched_at
      WHERE (d.local_date, d.local_time, d.utc_offset_minutes, d.value, d.value_json, d.participant_device_id)
        IS DISTINCT FROM (EXCLUDED.local_date, EXCLUDED.local_time, EXCLUDED.utc_offset_minutes,
                          EXCLUDED.value, EXCLUDED.value_json, EXCLUDED.participant_device_id)
      RETURNING d.metric_key`.execute(db);
    for (const row of r.rows) changed.set(row.metric_key, (changed.get(row.metric_key) ?? 0) + 1);
  }
  return changed;
}
