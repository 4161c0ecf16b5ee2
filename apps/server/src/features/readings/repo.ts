/*
 * The readings table's write path: the one function the background sync (and
 * bench/ingest) stores readings with. A batch is sent as one array per column
 * and spread by unnest() into one INSERT … ON CONFLICT DO UPDATE: one
 * statement and ten parameters per chunk, whatever the number of rows, so
 * PostgreSQL parses and plans once and the parameter limit never applies.
 */
import { INTRADAY_STEP_SECONDS, isIntradayMetric } from '@trialwear/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { type IntradayDayRow, intradayDays } from './intraday-days.js';

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

/**
 * upsertReadings, answering the rows inserted or changed per metric (the sync
 * keeps them on its cursors). Readings of an intraday metric go to their day
 * rows (intraday_days): a call holds whole days of those, and each day it
 * holds replaces the stored one (a day the provider revised is updated, not
 * added to).
 */
export async function upsertReadingsByMetric(
  db: Db,
  rows: readonly ReadingRow[],
): Promise<Map<string, number>> {
  const intraday = rows.filter((r) => isIntradayMetric(r.metric_key));
  const changed =
    intraday.length > 0
      ? await upsertIntradayDays(
          db,
          intradayDays(intraday, (m) => INTRADAY_STEP_SECONDS[m]!),
        )
      : new Map<string, number>();
  const byKey = new Map<string, ReadingRow>();
  for (const r of rows)
    if (!isIntradayMetric(r.metric_key))
      byKey.set(`${r.participant_id}|${r.metric_key}|${r.measured_at.getTime()}`, r);
  const unique = [...byKey.values()];
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

/** The month partitions of intraday_days holding local dates first … last, made where missing (migration 021). */
export async function ensureIntradayPartitions(db: Db, first: string, last: string) {
  await sql`SELECT intraday_ensure_partitions(${first}::date, ${last}::date)`.execute(db);
}

/** Day rows per statement: about 12 KB of samples each. */
const DAY_CHUNK = 500;

/** An array literal PostgreSQL reads as float8[] / int[]. */
const arrayText = (xs: readonly (number | null)[]) =>
  `{${xs.map((x) => (x === null ? 'NULL' : String(x))).join(',')}}`;

/**
 * Stores intraday day rows: a new day is inserted, a stored day whose samples
 * (or grid, offsets, device) differ is replaced, an equal one is left alone.
 * The month partitions the days fall in are made first where missing.
 * Answers the samples of the days inserted or changed, per metric.
 */
export async function upsertIntradayDays(
  db: Db,
  days: readonly IntradayDayRow[],
): Promise<Map<string, number>> {
  const changed = new Map<string, number>();
  if (days.length === 0) return changed;
  const dates = days.map((d) => d.local_date).sort();
  await ensureIntradayPartitions(db, dates[0]!, dates.at(-1)!);
  for (let i = 0; i < days.length; i += DAY_CHUNK) {
    const chunk = days.slice(i, i + DAY_CHUNK);
    const col = <T>(f: (r: IntradayDayRow) => T) => chunk.map(f);
    const r = await sql<{ metric_key: string; value_count: number }>`
      INSERT INTO intraday_days AS d (participant_id, team_id, metric_key, local_date, start_at, step_seconds,
        utc_offset_minutes, offset_shifts, samples, value_count, worn_count, newest_at, newest_offset_minutes,
        participant_device_id, provider, fetched_at)
      SELECT x.participant_id, x.team_id, x.metric_key, x.local_date, x.start_at, x.step_seconds,
        x.utc_offset_minutes, x.offset_shifts::int[], x.samples::float8[], x.value_count,
        (SELECT count(*) FROM unnest(x.samples::float8[]) v
          WHERE v IS NOT NULL AND device_reading_worn(x.metric_key, v))::int,
        x.newest_at, x.newest_offset_minutes, x.participant_device_id, x.provider, x.fetched_at
      FROM unnest(
        ${col((r) => r.participant_id)}::int[],
        ${col((r) => r.team_id)}::int[],
        ${col((r) => r.metric_key)}::text[],
        ${col((r) => r.local_date)}::date[],
        ${col((r) => r.start_at.toISOString())}::timestamptz[],
        ${col((r) => r.step_seconds)}::int[],
        ${col((r) => r.utc_offset_minutes)}::smallint[],
        ${col((r) => (r.offset_shifts ? arrayText(r.offset_shifts) : null))}::text[],
        ${col((r) => arrayText(r.samples))}::text[],
        ${col((r) => r.value_count)}::int[],
        ${col((r) => r.newest_at.toISOString())}::timestamptz[],
        ${col((r) => r.newest_offset_minutes)}::smallint[],
        ${col((r) => r.participant_device_id)}::int[],
        ${col((r) => r.provider)}::text[],
        ${col((r) => r.fetched_at?.toISOString() ?? null)}::timestamptz[])
        AS x(participant_id, team_id, metric_key, local_date, start_at, step_seconds, utc_offset_minutes,
             offset_shifts, samples, value_count, newest_at, newest_offset_minutes, participant_device_id,
             provider, fetched_at)
      ON CONFLICT (participant_id, metric_key, local_date) DO UPDATE SET
        team_id = EXCLUDED.team_id,
        start_at = EXCLUDED.start_at,
        step_seconds = EXCLUDED.step_seconds,
        utc_offset_minutes = EXCLUDED.utc_offset_minutes,
        offset_shifts = EXCLUDED.offset_shifts,
        samples = EXCLUDED.samples,
        value_count = EXCLUDED.value_count,
        worn_count = EXCLUDED.worn_count,
        newest_at = EXCLUDED.newest_at,
        newest_offset_minutes = EXCLUDED.newest_offset_minutes,
        participant_device_id = EXCLUDED.participant_device_id,
        provider = EXCLUDED.provider,
        fetched_at = EXCLUDED.fetched_at
      WHERE (d.start_at, d.step_seconds, d.utc_offset_minutes, d.offset_shifts, d.samples, d.participant_device_id)
        IS DISTINCT FROM (EXCLUDED.start_at, EXCLUDED.step_seconds, EXCLUDED.utc_offset_minutes,
                          EXCLUDED.offset_shifts, EXCLUDED.samples, EXCLUDED.participant_device_id)
      RETURNING d.metric_key, d.value_count`.execute(db);
    for (const row of r.rows)
      changed.set(row.metric_key, (changed.get(row.metric_key) ?? 0) + row.value_count);
  }
  return changed;
}

export interface StoredReading {
  metric_key: string;
  measured_at: Date;
  local_date: string;
  local_time: string | null;
  utc_offset_minutes: number | null;
  value: number | null;
  value_json: unknown;
  participant_device_id: number | null;
  provider: string | null;
}

/**
 * One participant's stored readings of a metric in time order, optionally of
 * participant-local dates from … to (inclusive), wherever the metric is
 * stored: an intraday metric's samples as readings (the intraday_readings
 * view of its day rows), any other metric's readings.
 */
export async function storedReadings(
  db: Db,
  participantId: number,
  metricKey: string,
  dates?: { from: string; to: string },
): Promise<StoredReading[]> {
  const source = isIntradayMetric(metricKey) ? sql`intraday_readings` : sql`device_readings`;
  const order = isIntradayMetric(metricKey) ? sql`local_date, sample_index` : sql`measured_at`;
  const r = await sql<StoredReading>`
    SELECT metric_key, measured_at, local_date, local_time, utc_offset_minutes, value, value_json,
           participant_device_id, provider
    FROM ${source}
    WHERE participant_id = ${participantId} AND metric_key = ${metricKey}
      ${dates ? sql`AND local_date BETWEEN ${dates.from}::date AND ${dates.to}::date` : sql``}
    ORDER BY ${order}`.execute(db);
  return r.rows;
}

/** One stored intraday day as its samples, with when it was fetched and how far the link's sync has read. */
export interface StoredIntradayDay {
  start_at: Date;
  step_seconds: number;
  utc_offset_minutes: number;
  offset_shifts: number[] | null;
  samples: (number | null)[];
  fetched_at: Date | null;
  /** The sync's cursor of this link and metric: a day before it has been read whole. */
  cursor_date: string | null;
}

/**
 * The link's stored day of an intraday metric (the day row as stored: one
 * index probe, the samples as one array), or undefined. The data pages draw
 * it instead of asking the provider (issue #24 item 3).
 */
export function storedIntradayDay(
  db: Db,
  q: { participantId: number; deviceId: number; metricKey: string; date: string },
): Promise<StoredIntradayDay | undefined> {
  return db
    .selectFrom('intraday_days as d')
    .leftJoin('device_sync_cursors as c', (j) =>
      j
        .onRef('c.participant_device_id', '=', 'd.participant_device_id')
        .onRef('c.metric_key', '=', 'd.metric_key'),
    )
    .select([
      'd.start_at',
      'd.step_seconds',
      'd.utc_offset_minutes',
      'd.offset_shifts',
      'd.samples',
      'd.fetched_at',
      'c.cursor_date',
    ])
    .where('d.participant_id', '=', q.participantId)
    .where('d.metric_key', '=', q.metricKey)
    .where('d.local_date', '=', q.date)
    .where('d.participant_device_id', '=', q.deviceId)
    .executeTakeFirst();
}
