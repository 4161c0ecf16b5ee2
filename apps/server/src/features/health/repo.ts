import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** Resolves when the database answers a trivial query. */
export async function pingDatabase(db: Db) {
  await sql`SELECT 1`.execute(db);
}

/** The names of the applied migrations (schema_migrations: the application role may read it). */
export async function appliedMigrations(db: Db): Promise<string[]> {
  // Not in the Kysely schema (migrate.ts owns it).
  const { rows } = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(db);
  return rows.map((r) => r.name);
}
