/** SQL of the audit chain's verification: the entries in chain order with their recomputed hashes, the head, the results. */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface ChainEntry {
  chain_seq: string;
  id: string;
  prev_hash: string;
  hash: string;
  /** The hash recomputed from the entry's fields by the same function the insert trigger uses. */
  expected: string;
}

export async function chainEntriesAfter(db: Db, afterSeq: number, limit: number): Promise<ChainEntry[]> {
  const r = await sql<ChainEntry>`
    SELECT chain_seq::text, id::text, prev_hash, hash,
           audit_entry_hash(prev_hash, occurred_at, user_id, team_id, action, entity_type, entity_id,
                            before, after, request_id, ip) AS expected
      FROM audit_log
     WHERE audit_log.chain_seq > ${afterSeq}
     ORDER BY audit_log.chain_seq -- the column, not the text alias above
     LIMIT ${limit}`.execute(db);
  return r.rows;
}

export async function chainHead(db: Db) {
  const r = await sql<{ last_seq: string; last_hash: string }>`
    SELECT last_seq::text, last_hash FROM audit_chain_head WHERE singleton`.execute(db);
  return r.rows[0] ? { seq: Number(r.rows[0].last_seq), hash: r.rows[0].last_hash } : null;
}

export async function hashAtSeq(db: Db, seq: number) {
  const r = await sql<{ hash: string }>`SELECT hash FROM audit_log WHERE chain_seq = ${seq}`.execute(db);
  return r.rows[0]?.hash ?? null;
}

export async function insertVerification(
  db: Db,
  v: {
    ok: boolean;
    entries: number;
    headSeq: number;
    headHash: string;
    firstBreak: unknown;
    source: 'cli' | 'job';
    at: Date;
  },
) {
  await db
    .insertInto('audit_verifications')
    .values({
      verified_at: v.at,
      ok: v.ok,
      entries: String(v.entries),
      head_seq: String(v.headSeq),
      head_hash: v.headHash,
      first_break: v.firstBreak === null ? null : JSON.stringify(v.firstBreak),
      source: v.source,
    })
    .execute();
}

export function latestVerification(db: Db) {
  return db
    .selectFrom('audit_verifications')
    .selectAll()
    .orderBy('verified_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
