/*
 * Plain SQL migrations from apps/server/migrations, applied in file-name order,
 * each in its own transaction, recorded in schema_migrations. An advisory lock
 * (session level, held from the check of what is applied to the last commit)
 * lets several servers and workers start at once against one database: the
 * first applies what is pending, the others wait, then find nothing to do
 * (test/scale-out: three simultaneous starts migrate once).
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** The migrations this build knows, in the order they apply (what /api/ready expects applied). */
export function knownMigrations(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

export interface MigrateOptions {
  /**
   * Run under the same lock after the migrations (the application role's
   * grants): concurrent GRANTs on one table fail with "tuple concurrently updated".
   */
  whileLocked?: (client: pg.PoolClient) => Promise<void>;
}

export async function migrate(pool: pg.Pool, opts: MigrateOptions = {}): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['trialwear_migrations']);
    // Checked first: a role that may not create tables (the application role) can still see nothing is pending.
    const { rows } = await client.query<{ exists: boolean }>(
      "SELECT to_regclass('public.schema_migrations') IS NOT NULL AS exists",
    );
    if (!rows[0]?.exists)
      await client.query(
        'CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
    );
    for (const file of knownMigrations()) {
      if (done.has(file)) continue;
      const sql = fs.readFileSync(new URL(file, `file://${MIGRATIONS_DIR}`), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
        applied.push(file);
      } catch (err) {
        await client.query('ROLLBACK');
        const denied = (err as { code?: string }).code === '42501';
        throw new Error(
          `Migration ${file} failed: ${(err as Error).message}${
            denied ? ' (this role may not change the schema: give the owner role as DATABASE_OWNER_URL)' : ''
          }`,
          { cause: err },
        );
      }
    }
    await opts.whileLocked?.(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['trialwear_migrations']).catch(() => {});
    client.release();
  }
  return applied;
}
