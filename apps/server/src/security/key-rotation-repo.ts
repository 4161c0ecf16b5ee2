/**
 * SQL of the encryption-key rotation: the sealed columns of every table that
 * keeps secrets, read in key order a batch at a time and written back only
 * when unchanged meanwhile (compare-and-set), so a refresh racing the
 * rotation is never overwritten.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** A table holding values sealed by encryption.ts: its integer key and the sealed columns (nullable or not). */
export interface SealedTable {
  table: string;
  key: string;
  columns: readonly string[];
}

/**
 * Every sealed column of the schema. A new encrypted column is added here,
 * and `npm run cli -- rotate-encryption-key` re-seals it with the rest.
 */
export const SEALED_TABLES: readonly SealedTable[] = [
  {
    table: 'provider_tokens',
    key: 'participant_device_id',
    columns: ['access_token_enc', 'refresh_token_enc'],
  },
  { table: 'users', key: 'id', columns: ['sfa_secret_enc'] },
  { table: 'trials', key: 'id', columns: ['date_shift_key_enc'] },
  { table: 'redcap_settings', key: 'trial_id', columns: ['token_enc'] },
];

export interface SealedRow {
  id: number;
  values: Array<string | null>;
}

/** The next rows after `afterId` with a value not sealed under `prefix` (the current key's `v2.<id>.`). */
export async function rowsToReseal(
  db: Db,
  t: SealedTable,
  prefix: string,
  afterId: number,
  limit: number,
): Promise<SealedRow[]> {
  const cols = t.columns.map((c) => sql.ref(c));
  const stale = sql.join(
    t.columns.map((c) => sql`(${sql.ref(c)} IS NOT NULL AND NOT starts_with(${sql.ref(c)}, ${prefix}))`),
    sql` OR `,
  );
  const res = await sql<Record<string, unknown>>`
    SELECT ${sql.ref(t.key)} AS id, ${sql.join(cols)} FROM ${sql.table(t.table)}
    WHERE ${sql.ref(t.key)} > ${afterId} AND (${stale})
    ORDER BY ${sql.ref(t.key)} LIMIT ${limit}`.execute(db);
  return res.rows.map((r) => ({
    id: Number(r.id),
    values: t.columns.map((c) => (r[c] as string | null) ?? null),
  }));
}

/** Writes the re-sealed values when the row still holds `before`; false when it changed meanwhile. */
export async function reseal(
  db: Db,
  t: SealedTable,
  id: number,
  before: Array<string | null>,
  after: Array<string | null>,
): Promise<boolean> {
  const sets = sql.join(t.columns.map((c, i) => sql`${sql.ref(c)} = ${after[i]}`));
  const same = sql.join(
    t.columns.map((c, i) => sql`${sql.ref(c)} IS NOT DISTINCT FROM ${before[i]}`),
    sql` AND `,
  );
  const res = await sql`
    UPDATE ${sql.table(t.table)} SET ${sets} WHERE ${sql.ref(t.key)} = ${id} AND ${same}`.execute(db);
  return Number(res.numAffectedRows ?? 0) === 1;
}
