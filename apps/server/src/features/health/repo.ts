import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** Resolves when the database answers a trivial query. */
export async function pingDatabase(db: Db) {
  await sql`SELECT 1`.execute(db);
}
