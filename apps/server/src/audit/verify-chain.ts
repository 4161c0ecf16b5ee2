/*
 * Walks the audit chain in chain order and reports the first break: a
 * missing position (a deleted entry), a prev_hash that is not the previous
 * entry's hash (a re-linked entry), a hash that does not match the entry's
 * fields (an edited entry), a head that does not match the last entry (a
 * deleted tail), or an anchor written outside the database that no longer
 * matches (a rebuilt chain). Reads in batches: memory stays flat however long
 * the log is.
 */
import type { Db } from '../db/database.js';
import type { Anchor } from './anchors.js';
import * as repo from './repo.js';

const GENESIS = '0'.repeat(64);
const BATCH = 5_000;

export type BreakReason =
  | 'missing_entry'
  | 'prev_hash_mismatch'
  | 'hash_mismatch'
  | 'head_mismatch'
  | 'anchor_mismatch';

export interface ChainBreak {
  seq: number;
  id: number | null;
  reason: BreakReason;
}

export interface ChainVerification {
  ok: boolean;
  entries: number;
  head: { seq: number; hash: string };
  firstBreak: ChainBreak | null;
}

export async function verifyAuditChain(db: Db, anchors: readonly Anchor[] = []): Promise<ChainVerification> {
  let seq = 0;
  let prev = GENESIS;
  let firstBreak: ChainBreak | null = null;
  const result = () => ({ ok: firstBreak === null, entries: seq, head: { seq, hash: prev }, firstBreak });
  for (;;) {
    const rows = await repo.chainEntriesAfter(db, seq, BATCH);
    for (const row of rows) {
      const at = Number(row.chain_seq);
      const id = Number(row.id);
      if (at !== seq + 1) firstBreak = { seq: seq + 1, id: null, reason: 'missing_entry' };
      else if (row.prev_hash !== prev) firstBreak = { seq: at, id, reason: 'prev_hash_mismatch' };
      else if (row.hash !== row.expected) firstBreak = { seq: at, id, reason: 'hash_mismatch' };
      if (firstBreak) return result();
      seq = at;
      prev = row.hash;
    }
    if (rows.length < BATCH) break;
  }
  const head = await repo.chainHead(db);
  if (!head || head.seq !== seq || head.hash !== prev) {
    firstBreak = { seq: seq + 1, id: null, reason: 'head_mismatch' };
    return result();
  }
  for (const anchor of anchors) {
    if (anchor.seq === 0) continue;
    if ((await repo.hashAtSeq(db, anchor.seq)) !== anchor.hash) {
      firstBreak = { seq: anchor.seq, id: null, reason: 'anchor_mismatch' };
      return result();
    }
  }
  return result();
}

/** Verify and keep the result where a Sys_Admin can see it. */
export async function verifyAndRecord(
  db: Db,
  anchors: readonly Anchor[],
  source: 'cli' | 'job',
  now: Date,
): Promise<ChainVerification> {
  const v = await verifyAuditChain(db, anchors);
  await repo.insertVerification(db, {
    ok: v.ok,
    entries: v.entries,
    headSeq: v.head.seq,
    headHash: v.head.hash,
    firstBreak: v.firstBreak,
    source,
    at: now,
  });
  return v;
}
