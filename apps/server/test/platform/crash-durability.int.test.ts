/*
 * kill -9 during writes: every write the server acknowledged survives, and
 * every participant in the database — acknowledged or not — has its audit
 * row (a write and its audit entry commit together or not at all). Once with
 * the server killed on the shared test database, once with the server and
 * its embedded PostgreSQL killed together and started again (crash recovery).
 * And kill -9 of a retention purge mid-way (issue 27 §4): every reading it
 * removed is in the audit counts, and the next run removes and audits the rest.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/free-port.mjs';
import { PURGE_BATCH_SIZE, purgeExpiredReadings } from '../../src/jobs/retention-purge/purge.js';
import {
  createTestTeam,
  FIXTURE_PASSWORD,
  insertParticipant,
  insertTrial,
  teamWithRoles,
} from '../support/fixtures.js';
import { HttpSession, startCli, startServer } from '../support/processes.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

/** Adds participants 8 at a time until `stop()`; returns the ids the server acknowledged. */
function writeUntilKilled(session: HttpSession, trialId: number) {
  const acknowledged: number[] = [];
  let n = 0;
  let running = true;
  const worker = async () => {
    while (running) {
      const i = n++;
      try {
        const res = await session.post('/api/trialParticipants', { trialId, email: `crash${i}@x.example` });
        if (res.ok) acknowledged.push(((await res.json()) as { participantId: number }).participantId);
      } catch {
        // the connection died with the server: not acknowledged
      }
    }
  };
  const workers = Array.from({ length: 8 }, worker);
  return {
    acknowledged,
    stop: async () => {
      running = false;
      await Promise.all(workers);
    },
  };
}

async function untilAcknowledged(ack: number[], count: number) {
  const end = Date.now() + 30_000;
  while (ack.length < count && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  expect(ack.length).toBeGreaterThanOrEqual(count);
}

/** Participants of a trial without a 'participant.create' audit row, and acknowledged ids that are missing. */
async function check(
  query: (text: string, values?: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }>,
  trialId: number,
  acknowledged: number[],
) {
  const rows = (await query('SELECT id FROM participants WHERE trial_id = $1', [trialId])).rows.map((r) =>
    Number(r.id),
  );
  const audited = new Set(
    (
      await query(
        "SELECT entity_id FROM audit_log WHERE action = 'participant.create' AND entity_type = 'participant'",
      )
    ).rows.map((r) => Number(r.entity_id)),
  );
  return {
    stored: rows.length,
    lost: acknowledged.filter((id) => !rows.includes(id)),
    withoutAudit: rows.filter((id) => !audited.has(id)),
  };
}

describe('kill -9 during writes', () => {
  let t: TestApp | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
    if (dataDir) {
      // A failed run may leave its embedded PostgreSQL behind: stop it before removing its data.
      const pidFile = path.join(dataDir, 'pgdata', 'postmaster.pid');
      if (fs.existsSync(pidFile)) {
        try {
          process.kill(Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGKILL');
        } catch {
          // already gone
        }
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    dataDir = undefined;
  });

  it('the server alone: acknowledged writes and their audit rows survive', async () => {
    t = await createTestApp();
    const f = await teamWithRoles(t, 'Crash Team', { hiddenFields: [] });
    const username = (
      await t.ctx.db
        .selectFrom('users')
        .select('username')
        .where('id', '=', f.userIds.Admin)
        .executeTakeFirstOrThrow()
    ).username;
    const server = await startServer({
      DATABASE_URL: t.ctx.config.DATABASE_URL!,
      // A server on a shared database refuses to start without the shared secrets (issue #15).
      ENCRYPTION_KEY: t.ctx.config.ENCRYPTION_KEY!,
      SESSION_SECRET: t.ctx.config.SESSION_SECRET!,
      DATA_DIR: t.dataDir,
      SEED_DEMO: 'false',
    });
    try {
      const session = new HttpSession(server.base);
      await session.login(username, FIXTURE_PASSWORD);
      const trialId = (
        (await (await session.post('/api/userTrials', { trialNumber: '1', trialName: 'Crash' })).json()) as {
          trialId: number;
        }
      ).trialId;
      const writes = writeUntilKilled(session, trialId);
      await untilAcknowledged(writes.acknowledged, 40);
      server.child.kill('SIGKILL');
      await writes.stop();
      const db = t;
      const result = await check(
        (text, values) => db.database.pool.query(text, values as unknown[]),
        trialId,
        writes.acknowledged,
      );
      expect(result.lost).toEqual([]);
      expect(result.withoutAudit).toEqual([]);
      expect(result.stored).toBeGreaterThanOrEqual(writes.acknowledged.length);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('the server and its embedded PostgreSQL together, then a restart', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-crash-'));
    fs.chmodSync(dataDir, 0o755); // the cluster's unprivileged user must reach it when tests run as root
    const pgPort = await freePort();
    const env = {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      DATABASE_URL: '',
      SEED_DEMO: 'true',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SESSION_SECRET: randomBytes(32).toString('base64url'),
    };
    let server = await startServer(env);
    let trialId = 0;
    let acknowledged: number[] = [];
    try {
      const session = new HttpSession(server.base);
      await session.login('admin', 'Demo-pass1!');
      trialId = (
        (await (await session.post('/api/userTrials', { trialNumber: '77', trialName: 'Crash' })).json()) as {
          trialId: number;
        }
      ).trialId;
      const writes = writeUntilKilled(session, trialId);
      await untilAcknowledged(writes.acknowledged, 40);
      // The postmaster's pid, from its data directory (wherever the server put it).
      const pidFile = [
        path.join(dataDir, 'pgdata', 'postmaster.pid'),
        ...fs
          .readdirSync('/var/tmp')
          .filter((d) => d.startsWith('trialwear-'))
          .map((d) => path.join('/var/tmp', d, 'pgdata', 'postmaster.pid')),
      ].find((f) => fs.existsSync(f) && fs.readFileSync(f, 'utf8').split('\n')[3] === String(pgPort));
      expect(pidFile).toBeTruthy();
      const postmaster = Number(fs.readFileSync(pidFile!, 'utf8').split('\n')[0]);
      server.child.kill('SIGKILL');
      process.kill(postmaster, 'SIGKILL');
      await writes.stop();
      acknowledged = writes.acknowledged;
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }

    // Restart on the same data: PostgreSQL recovers from its write-ahead log.
    await new Promise((r) => setTimeout(r, 500));
    server = await startServer(env);
    try {
      const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
      const client = new pg.Client({
        connectionString: `postgres://trialwear:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/trialwear`,
      });
      await client.connect();
      try {
        const result = await check(
          (text, values) => client.query(text, values as unknown[]),
          trialId,
          acknowledged,
        );
        expect(result.lost).toEqual([]);
        expect(result.withoutAudit).toEqual([]);
      } finally {
        await client.end();
      }
      const verify = await fetch(`${server.base}/api/health`);
      expect(verify.ok).toBe(true);
    } finally {
      const exited = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGTERM');
      await exited;
    }
  }, 180_000);
});

describe('kill -9 during a retention purge', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('every reading removed before the kill is in the audit counts; the next run audits the rest', async () => {
    const app = await createTestApp();
    t = app;
    const db = app.ctx.db;
    const teamId = await createTestTeam(app, 'Purge crash', { retentionDays: 7 });
    const trialId = await insertTrial(app, { teamId, number: 'PC', name: 'PC', code: 'PC' });
    const pid = await insertParticipant(app, { teamId, trialId, email: 'pc@x.example' });
    // Three and a half batches past the team's 7 days (one a minute, from 30 days back), and two
    // readings inside them that stay. `purge-now` runs on the real clock.
    const old = 3 * PURGE_BATCH_SIZE + PURGE_BATCH_SIZE / 2;
    await sql`
      INSERT INTO device_readings (participant_id, team_id, metric_key, measured_at, local_date, value)
      SELECT ${pid}::int, ${teamId}::int, 'steps', now() - interval '30 days' - make_interval(mins => i), date '2026-01-01', i
        FROM generate_series(1, ${old}) AS i
      UNION ALL
      SELECT ${pid}::int, ${teamId}::int, 'steps', now() - make_interval(hours => i), date '2026-01-01', i
        FROM generate_series(1, 2) AS i`.execute(db);
    const count = async () =>
      Number(
        (
          await sql<{
            n: string;
          }>`SELECT count(*) AS n FROM device_readings WHERE team_id = ${teamId}`.execute(db)
        ).rows[0]!.n,
      );
    const audited = async () =>
      Number(
        (
          await sql<{ n: string }>`SELECT coalesce(sum((after->>'deleted')::int), 0) AS n FROM audit_log
            WHERE action = 'readings.retention_purge' AND team_id = ${teamId}`.execute(db)
        ).rows[0]!.n,
      );
    const before = await count();
    const PURGE_APP = 'purge-crash-test';
    const purgeBackends = async (also = '') =>
      (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = ${PURGE_APP} ${sql.raw(also)}`.execute(db)
      ).rows[0]!.n;

    // Hold the third batch: another transaction locks one of its readings (the oldest go first),
    // so two batches commit and the purge then waits, mid-way, until it is killed.
    const locker = await app.connectAs('owner');
    let purge: ReturnType<typeof startCli> | null = null;
    try {
      await locker.query('BEGIN');
      // The outer row only is locked (not the ones the subquery skips over).
      const locked = await locker.query(
        `SELECT 1 FROM device_readings
          WHERE (participant_id, metric_key, measured_at) = (
            SELECT participant_id, metric_key, measured_at FROM device_readings
             WHERE team_id = $1 ORDER BY measured_at OFFSET $2 LIMIT 1)
          FOR UPDATE`,
        [teamId, 2 * PURGE_BATCH_SIZE + 10],
      );
      expect(locked.rowCount).toBe(1);
      // Named, so its connections can be told apart in pg_stat_activity.
      purge = startCli(app, { PGAPPNAME: PURGE_APP }, 'purge-now');
      await until(
        async () => (await purgeBackends("AND wait_event_type = 'Lock'")) > 0,
        'the purge waiting at its third batch',
        60_000,
      );
      expect(await count()).toBe(before - 2 * PURGE_BATCH_SIZE);
      purge.child.kill('SIGKILL');
      await purge.done;
    } finally {
      if (purge && purge.child.exitCode === null && purge.child.signalCode === null)
        purge.child.kill('SIGKILL');
      await locker.query('ROLLBACK').catch(() => {});
      await locker.end();
    }
    // The killed purge's connections end once PostgreSQL sees the client gone (the waiting one
    // after the lock is released): count only then.
    await until(async () => (await purgeBackends()) === 0, "the killed purge's connections gone", 30_000);
    const removed = before - (await count());
    expect(removed).toBeGreaterThan(0);
    expect(await audited()).toBe(removed);

    // The next run removes the rest; every reading past retention is then audited exactly once.
    const again = await purgeExpiredReadings(db, new Date());
    expect(again.total).toBe(old - removed);
    expect(await count()).toBe(2);
    expect(await audited()).toBe(old);
  }, 120_000);
});
