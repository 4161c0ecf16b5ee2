import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema/index.js';

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

/**
 * Put in a hot query (`.modifyFront(PREPARED)` on a select) to run it as a
 * named prepared statement: PostgreSQL parses and plans it once per
 * connection instead of on every call. For the queries of every request
 * (the session lookup, the participant list): their parse and plan were
 * about a third of their cost. The SQL text names the statement, so each
 * shape of a query is prepared once.
 */
export const PREPARED = sql.raw('/* prepared */');
const PREPARED_MARK = '/* prepared */';

const statementNames = new Map<string, string>();
const statementName = (text: string) => {
  let name = statementNames.get(text);
  if (!name) {
    name = `tw_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
};

/** A pg client that runs the PREPARED-marked queries (text and values, as Kysely sends them) as named statements. */
class PreparingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // Minimal stop-gap (issue 27; the lead's fuller fix replaces it): a connection lost while the
    // client is checked out is emitted as 'error' on the client, and without a listener that ends
    // the process. The query that meets the loss still rejects, and the pool drops the client.
    this.on('error', () => {});
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; only (text, values) is rewritten.
  override query(...args: any[]): any {
    const [text, values] = args;
    if (
      args.length === 2 &&
      typeof text === 'string' &&
      Array.isArray(values) &&
      text.includes(PREPARED_MARK)
    )
      return super.query({ name: statementName(text), text, values });
    // biome-ignore lint/suspicious/noExplicitAny: as above
    return (super.query as (...a: any[]) => any)(...args);
  }
}

const pools = new WeakMap<Db, pg.Pool>();

/**
 * The pg pool behind a Db made by openDatabase: for the few repos that need
 * what Kysely cannot do, a protocol-level stream (COPY … TO STDOUT for the
 * export). Throws for a Db from elsewhere.
 */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('poolOf: this Db was not made by openDatabase');
  return pool;
}

export function openDatabase(connectionString: string, max = 10): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max, Client: PreparingClient });
  // An idle client losing its connection (e.g. the database restarting) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return {
    db,
    pool,
    connectionString,
    close: async () => {
      await db.destroy(); // ends the pool too
    },
  };
}
