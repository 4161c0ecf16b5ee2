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

/**
 * A pg client that runs the PREPARED-marked queries (text and values, as
 * Kysely sends them) as named statements, and that never takes the process
 * down when its connection dies.
 */
class PreparingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // A connection lost while the client is checked out (a failover, a restart, an operator's
    // pg_terminate_backend: 57P01) is emitted as 'error' on the client. pg-pool listens only while the
    // client is idle and Kysely never listens, so without this an unhandled 'error' event ends the
    // process (issue 27). The failure still reaches whoever uses the client: the running query
    // rejects, a later one fails with "not queryable", and on release the pool discards the client
    // (it is no longer queryable) and opens a new connection on the next checkout.
    this.on('error', onLostConnection);
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

/** Lost connections are reported by the query that meets them; here only a line for the operator. */
let lastLossLoggedAt = 0;
let lastLossAt = 0;

/** When a connection of this process last broke (epoch ms; 0 if never): the job runner asks. */
export const lastConnectionLossAt = () => lastLossAt;

function onLostConnection(err: Error & { code?: string }) {
  lastLossAt = Date.now();
  // Once per burst, not per client: the database terminating ten connections is one event.
  if (Date.now() - lastLossLoggedAt < 10_000) return;
  lastLossLoggedAt = Date.now();
  console.warn(`[db] database connection lost (${err.code ?? err.message}); the pool reconnects`);
}

/**
 * How long a request waits for a connection (a free one of the pool, or a new one) before it is
 * answered 503: without it a database that does not answer (a network partition) holds every
 * request for ever. Generous, so that a busy pool under load is not mistaken for an outage.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

export function openDatabase(connectionString: string, max = 10): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString,
    max,
    Client: PreparingClient,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // TCP keep-alive: a connection whose peer vanished (no FIN: a failover's old primary) is found dead.
    keepAlive: true,
  });
  // The pool's own listener for idle clients; the client's listener above already reports the loss.
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
