/*
 * One transaction for a write and everything it depends on: the checks
 * before it and its audit row. The work gets a copy of the context whose
 * `db` is the transaction, so the repos and recordAudit it calls join in.
 */
import { sql } from 'kysely';
import type { Db } from './database.js';

export function inTransaction<C extends { db: Db }, T>(ctx: C, work: (tx: C) => Promise<T>): Promise<T> {
  // Already inside one (a service calling another, or the demo seed): join it,
  // since Kysely has no nested transactions.
  if (ctx.db.isTransaction) return work(ctx);
  return ctx.db.transaction().execute((trx) => work({ ...ctx, db: trx }));
}

/**
 * Inside a transaction: wait for, then hold until it ends, the lock named
 * `name` (shared by every process on the database; e.g. one demo seed when
 * several servers start at once).
 */
export async function lockForTransaction(db: Db, name: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${name}))`.execute(db);
}
