/*
 * The database dropping the portal's connections (issue 27): a failover, a
 * restart or an operator's pg_terminate_backend. Five times under load the
 * server process (HTTP and jobs, WORKERS=true) keeps running, answers every
 * request with the data or a 503 (never a 500, never a dropped socket) and
 * answers again within seconds; a worker with a device sync and an export in
 * flight keeps running, the sync completes and the export completes once with
 * every row. Real processes on the real PostgreSQL, real time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageKeyOf } from '../../src/features/data-export/service.js';
import { parseCsv, zipEntries } from '../data-export/export-zip.js';
import { terminateConnections } from '../support/db-proxy.js';
import { FIXTURE_PASSWORD, type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../support/linked-participant.js';
import { allMail } from '../support/mail.js';
import { HttpSession, startServer, startWorker } from '../support/processes.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

const DAY = 86_400_000;
const dateAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CLIENTS = 12;
const TERMINATIONS = 5;

/** CLIENTS readers of one page in a loop until stopped: every status they got, and sockets that failed. */
function readUnderLoad(session: HttpSession, url: string) {
  const statuses = new Map<number, number>();
  let socketErrors = 0;
  let running = true;
  const reader = async () => {
    while (running) {
      try {
        const res = await session.get(url);
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      } catch {
        socketErrors++;
      }
    }
  };
  const readers = Array.from({ length: CLIENTS }, reader);
  return {
    statuses,
    socketErrors: () => socketErrors,
    stop: async () => {
      running = false;
      await Promise.all(readers);
    },
  };
}

describe('the database terminating the portal’s connections', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;
  let ids: number[];
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, withQueue: true });
    a = await teamWithRoles(t, 'Connection loss', { hiddenFields: [] });
    await storeMetrics(a, 'Dexcom G7 CGM', ['egv']);
    ({ trialId, ids } = await trialWithParticipants(a, 'Connection loss', ['l1@x.example', 'l2@x.example']));
    env = {
      DATABASE_URL: t.ctx.config.DATABASE_URL!,
      ENCRYPTION_KEY: t.ctx.config.ENCRYPTION_KEY!,
      SESSION_SECRET: t.ctx.config.SESSION_SECRET!,
      PUBLIC_URL: t.ctx.config.publicUrl,
      DATA_DIR: t.dataDir,
      SEED_DEMO: 'false',
    };
  }, 120_000);
  afterAll(() => t?.close());

  /** One termination that met connections (between two, the processes may hold none for a moment). */
  const cutConnections = () =>
    until(
      async () => (await terminateConnections(t)) > 0,
      'a connection of the database to terminate',
      10_000,
    );

  it('five times under load: the server keeps running and answers within seconds, never a 500', async () => {
    const username = (
      await t.ctx.db
        .selectFrom('users')
        .select('username')
        .where('id', '=', a.userIds.Admin)
        .executeTakeFirstOrThrow()
    ).username;
    const server = await startServer({ ...env, WORKERS: 'true' }, { timeoutMs: 120_000 });
    try {
      const session = new HttpSession(server.base);
      await session.login(username, FIXTURE_PASSWORD);
      const list = `/api/trialParticipants/${trialId}`;
      expect((await session.get(list)).status).toBe(200);
      const load = readUnderLoad(session, list);
      const recoveries: number[] = [];
      try {
        for (let i = 0; i < TERMINATIONS; i++) {
          await sleep(1_000);
          await cutConnections();
          const cut = Date.now();
          // Answering again: the next read of the page is the page.
          await until(
            async () => (await session.get(list)).status === 200,
            `an answer after cut ${i + 1}`,
            10_000,
          );
          recoveries.push(Date.now() - cut);
        }
      } finally {
        await load.stop();
      }
      expect(server.child.exitCode, server.output()).toBeNull();
      expect(server.output()).not.toMatch(/Unhandled|uncaught/i);
      expect(load.socketErrors(), server.output()).toBe(0);
      const statuses = [...load.statuses.keys()].sort();
      expect(
        statuses.every((s) => s === 200 || s === 503),
        `statuses ${statuses.join()}`,
      ).toBe(true);
      expect(load.statuses.get(200)).toBeGreaterThan(CLIENTS * TERMINATIONS);
      expect(Math.max(...recoveries)).toBeLessThan(10_000);
      console.info(
        `recovered after each cut in ${recoveries.join(', ')} ms; answers ${JSON.stringify([...load.statuses])}`,
      );
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 240_000);

  it('a worker with a sync and an export in flight keeps running; the export completes once with every row', async () => {
    const worker = startWorker(t, { ...env, LOG_LEVEL: 'info' });
    try {
      await until(
        () => worker.output().includes('is running jobs'),
        `the worker:\n${worker.output()}`,
        90_000,
      );
      // Linking enqueues each device's first sync (sync-soon), which this worker runs.
      for (const id of ids) await linkParticipant(t, a, id, 'dexcom');
      const device = (
        (await a.as.User.get('/api/dataExport/devices')).json() as Array<{ id: number; friendlyName: string }>
      ).find((d) => d.friendlyName === 'Dexcom G7 CGM')!.id;
      const startDate = dateAgo(60);
      const endDate = dateAgo(1);
      const res = await a.as.User.post('/api/dataExport/batchDataExport', {
        trialId,
        deviceId: device,
        participantIds: ids,
        startDate,
        endDate,
        metrics: ['egv'],
        fileName: 'connection loss',
        exportMode: 'single-tab',
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().jobId as string;
      const row = () =>
        t.ctx.db.selectFrom('export_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      await until(
        async () => (await row()).status === 'processing',
        `the export to start:\n${worker.output()}`,
        60_000,
      );

      for (let i = 0; i < TERMINATIONS; i++) {
        await cutConnections();
        await sleep(1_500);
      }
      expect(worker.child.exitCode, worker.output()).toBeNull();

      await until(
        async () => (await row()).status === 'completed',
        `the export to complete: ${JSON.stringify(await row().catch(() => null))}\n${worker.output()}`,
        180_000,
      );
      expect(worker.child.exitCode, worker.output()).toBeNull();
      expect(worker.output()).not.toMatch(/Unhandled|uncaught/i);
      // How often the cuts made the export start over (for the reader of the log; not asserted).
      console.info(`export runs: ${(await row()).attempts}`);

      // Once: one file for the job, no temporary left, one e-mail.
      const key = storageKeyOf(a.teamId, id);
      const files = fs
        .readdirSync(path.join(t.dataDir, 'exports'), { recursive: true })
        .map(String)
        .filter((f) => f.includes(id));
      expect(files).toEqual([key]);
      // The e-mail is written after the row turns completed: wait for it, and count again at the end.
      const exportMails = () =>
        allMail(t.dataDir, (raw) => /export/i.test(raw) && raw.includes('connection loss'));
      await until(
        async () => (await exportMails()).length > 0,
        `the export's e-mail:\n${worker.output()}`,
        30_000,
      );

      // Every row: the ZIP holds each stored reading of the range once.
      const dl = await a.as.User.get(`/api/dataExport/jobs/${id}/download`);
      expect(dl.statusCode).toBe(200);
      const zip = await zipEntries(dl.rawPayload);
      const data = [...zip.keys()].filter((n) => n !== 'manifest.json' && n !== 'data_dictionary.csv');
      const rows = parseCsv(zip.get(data[0]!)!.toString('utf8')).rows;
      const stored = await t.ctx.db
        .selectFrom('device_readings')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('participant_id', 'in', ids)
        .where('metric_key', '=', 'egv')
        .where('local_date', '>=', startDate)
        .where('local_date', '<=', endDate)
        .executeTakeFirstOrThrow();
      expect(rows.length).toBe(Number(stored.n));
      expect(rows.length).toBeGreaterThan(2 * 55 * 280);
      expect(new Set(rows.map((r) => `${r.participant_code}|${r.measured_at_utc}`)).size).toBe(rows.length);

      // The devices' syncs completed despite the cuts.
      await until(
        async () => {
          const states = await t.ctx.db
            .selectFrom('device_sync_state')
            .innerJoin(
              'participant_devices',
              'participant_devices.id',
              'device_sync_state.participant_device_id',
            )
            .select('device_sync_state.last_success_at')
            .where('participant_devices.participant_id', 'in', ids)
            .execute();
          return states.length === ids.length && states.every((s) => s.last_success_at !== null);
        },
        `the devices' syncs:\n${worker.output()}`,
        150_000,
      );
      // Once: still one e-mail after everything else has run.
      expect(await exportMails()).toHaveLength(1);
    } finally {
      worker.child.kill('SIGTERM');
      if (worker.child.exitCode === null) await new Promise((r) => worker.child.once('exit', r));
    }
  }, 420_000);
});
