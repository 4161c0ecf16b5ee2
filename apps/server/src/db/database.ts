import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// A DATE is a calendar day, not an instant: keep it as 'YYYY-MM-DD' instead of a
// Date at local midnight (which shifts across time zones).
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
// bigint (int8) and numeric come back as strings by default; counts we cast to int in SQL.
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  pool: pg.Pool;
  connectionString: string;
  close: () => Promise<void>;
}

export function openDatabase(connectionString: string, max = 10): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client losing its connection (e.g. the database restarting) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    pool,
    connectionString,
    close: async () => {
      await db.destroy(); // ends the pool too
    },
  };
}
