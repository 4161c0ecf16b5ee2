/*
 * The audit trail cannot be rewritten by the application, stays one line
 * under parallel writes, and `verify-audit` finds the first break when
 * someone with full database rights edits, deletes or rebuilds it.
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAnchors } from '../../src/audit/anchors.js';
import { recordAudit, recordAudits } from '../../src/audit/audit-log.js';
import { verifyAuditChain } from '../../src/audit/verify-chain.js';
import { auditAnchor } from '../../src/jobs/audit-anchor/job.js';
import { teamWithRoles } from '../support/fixtures.js';
import { runCli } from '../support/processes.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('audit trail', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const write = (n: number) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        recordAudit(t.ctx.db, {
          userId: null,
          teamId: null,
          action: `test.${i}`,
          entityType: 'test',
          entityId: i,
        }),
      ),
    );

  /** As the cluster's superuser, with the triggers off: what an attacker with full database rights can do. */
  async function asAttacker(statements: string) {
    const c = await t.connectAs('superuser');
    try {
      await c.query(`BEGIN; SET LOCAL session_replication_role = replica; ${statements}; COMMIT;`);
    } finally {
      await c.end();
    }
  }

  it('the application role cannot switch off the triggers, touch the chain head or rewrite entries', async () => {
    await write(3);
    const attempts = [
      sql`SET session_replication_role = replica`,
      sql`ALTER TABLE audit_log DISABLE TRIGGER ALL`,
      sql`ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update`,
      sql`UPDATE audit_chain_head SET last_seq = 0`,
      sql`UPDATE audit_log SET action = 'x'`,
      sql`DELETE FROM audit_log`,
      sql`TRUNCATE audit_log`,
      sql`DROP TABLE audit_log`,
      sql`CREATE OR REPLACE FUNCTION audit_log_forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$`,
      sql`DROP TRIGGER audit_log_no_update ON audit_log`,
    ];
    for (const attempt of attempts)
      await expect(attempt.execute(t.ctx.db)).rejects.toThrow(
        /permission denied|must be owner|must be superuser/,
      );
    expect((await verifyAuditChain(t.ctx.db)).ok).toBe(true);
  });

  it('stays one line under 40 parallel writes (HTTP writes and direct audit rows)', async () => {
    const f = await teamWithRoles(t, 'Audit Team', { hiddenFields: [] });
    const trialId = (await f.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'A' })).json()
      .trialId;
    const adds = Array.from({ length: 20 }, (_, i) =>
      f.as.Admin.post('/api/trialParticipants', { trialId, email: `p${i}@audit.example` }),
    );
    const results = await Promise.all([...adds, write(20)]);
    expect(results.slice(0, 20).every((r) => (r as { statusCode: number }).statusCode === 200)).toBe(true);
    const rows = await t.ctx.db.selectFrom('audit_log').select(['chain_seq', 'prev_hash', 'hash']).execute();
    const prevs = rows.map((r) => r.prev_hash);
    expect(new Set(prevs).size).toBe(rows.length); // no two entries link to the same predecessor
    const seqs = rows.map((r) => Number(r.chain_seq)).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
    const v = await verifyAuditChain(t.ctx.db);
    expect(v).toMatchObject({ ok: true, entries: rows.length, firstBreak: null });
  });

  it('links the rows of one multi-row insert (recordAudits) one after the other, in the given order', async () => {
    await write(2);
    const entries = Array.from({ length: 1500 }, (_, i) => ({
      userId: null,
      teamId: null,
      action: `test.batch.${i}`,
      entityType: 'test',
      entityId: i,
      after: { i },
    }));
    await Promise.all([recordAudits(t.ctx.db, entries), write(5)]);
    const batch = await t.ctx.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('action', 'like', 'test.batch.%')
      .orderBy('chain_seq')
      .execute();
    expect(batch.map((r) => r.action)).toEqual(entries.map((e) => e.action));
    expect(await verifyAuditChain(t.ctx.db)).toMatchObject({ ok: true, entries: 1507, firstBreak: null });
  });

  it('finds an edited entry', async () => {
    await write(6);
    await asAttacker(`UPDATE audit_log SET after = '{"forged": true}' WHERE chain_seq = 4`);
    expect((await verifyAuditChain(t.ctx.db)).firstBreak).toMatchObject({ seq: 4, reason: 'hash_mismatch' });
  });

  it('finds a deleted entry, and a deleted last entry', async () => {
    await write(6);
    await asAttacker('DELETE FROM audit_log WHERE chain_seq = 3');
    expect((await verifyAuditChain(t.ctx.db)).firstBreak).toMatchObject({ seq: 3, reason: 'missing_entry' });

    const t2 = t;
    t = await createTestApp();
    await t2.close();
    await write(4);
    await asAttacker('DELETE FROM audit_log WHERE chain_seq = 4');
    expect((await verifyAuditChain(t.ctx.db)).firstBreak).toMatchObject({ seq: 4, reason: 'head_mismatch' });
  });

  it('a rebuilt chain verifies on its own but not against the anchor written before', async () => {
    await write(5);
    await auditAnchor.handler(t.ctx, {});
    const anchors = readAnchors(t.ctx.config.auditAnchorFile);
    expect(anchors).toHaveLength(1);
    expect(anchors[0]!.seq).toBe(5);
    // Delete entry 2 and recompute every later link and the head, as a careful attacker would.
    await asAttacker(`
      DELETE FROM audit_log WHERE chain_seq = 2;
      UPDATE audit_log SET chain_seq = chain_seq - 1 WHERE chain_seq > 2;
      DO $$ DECLARE r record; prev text := (SELECT hash FROM audit_log WHERE chain_seq = 1); BEGIN
        FOR r IN SELECT * FROM audit_log WHERE chain_seq > 1 ORDER BY chain_seq LOOP
          UPDATE audit_log SET prev_hash = prev, hash = audit_entry_hash(prev, r.occurred_at, r.user_id, r.team_id,
            r.action, r.entity_type, r.entity_id, r.before, r.after, r.request_id, r.ip) WHERE id = r.id
          RETURNING hash INTO prev;
        END LOOP;
        UPDATE audit_chain_head SET last_seq = (SELECT max(chain_seq) FROM audit_log), last_hash = prev;
      END $$`);
    expect((await verifyAuditChain(t.ctx.db)).ok).toBe(true);
    expect((await verifyAuditChain(t.ctx.db, anchors)).firstBreak).toMatchObject({
      reason: 'anchor_mismatch',
    });
  });

  it('npm run cli -- verify-audit reports the chain, exits 1 at a break, and a Sys_Admin sees the last result', async () => {
    const f = await teamWithRoles(t, 'Verify Team');
    await write(3);
    const cli = () => {
      const res = runCli(t, 'verify-audit');
      return { code: res.code, out: JSON.parse(res.stdout) };
    };
    const entries = (await t.ctx.db.selectFrom('audit_log').select('id').execute()).length;
    expect(entries).toBeGreaterThan(3); // the sign-ins of the fixture are audited too
    const good = cli();
    expect(good.code).toBe(0);
    expect(good.out).toMatchObject({ ok: true, command: 'verify-audit', entries, firstBreak: null });
    const seen = await f.as.Sys_Admin.get('/api/audit/verification');
    expect(seen.json().verification).toMatchObject({ ok: true, entries, source: 'cli' });
    expect((await f.as.Admin.get('/api/audit/verification')).statusCode).toBe(403);

    await asAttacker(`UPDATE audit_log SET action = 'nothing.happened' WHERE chain_seq = 2`);
    const bad = cli();
    expect(bad.code).toBe(1);
    expect(bad.out).toMatchObject({ ok: false, firstBreak: { seq: 2, reason: 'hash_mismatch' } });
    expect((await f.as.Sys_Admin.get('/api/audit/verification')).json().verification).toMatchObject({
      ok: false,
      firstBreak: { seq: 2, reason: 'hash_mismatch' },
    });
  });

  it('the daily anchor job appends the verified head to the anchor file', async () => {
    await write(2);
    const result = await auditAnchor.handler(t.ctx, {});
    expect(result).toMatchObject({ entries: 2, head: { seq: 2 } });
    const lines = fs.readFileSync(t.ctx.config.auditAnchorFile, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const head = await t.ctx.db.selectFrom('audit_chain_head').selectAll().executeTakeFirstOrThrow();
    expect(JSON.parse(lines[0]!)).toMatchObject({ seq: 2, hash: head.last_hash });
  });
});
