/*
 * An export in real worker processes (`npm run worker`), woken through
 * pg-boss by the request: the worker is killed (SIGKILL) in the middle of
 * the job. No file is visible then; a new worker takes the job over once its
 * lease has run out (the sweep wakes it) and exactly one valid ZIP
 * results, holding every stored reading of the range once. Real time
 * throughout (child processes cannot share a test clock).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportStorage, storageKeyOf } from '../../src/features/data-export/service.js';
import { dataExportSweep } from '../../src/jobs/data-export/job.js';
import { enqueue } from '../../src/jobs/job-definition.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../support/linked-participant.js';
import { startWorker } from '../support/processes.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';
import { parseCsv, zipEntries } from './export-zip.js';
import { sha256 } from './support/zip.js';

const DAY = 86_400_000;
const dateAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

describe('an export whose worker is killed mid-job', () => {
  let t: TestApp;
  let a: TeamFixture;
  let env: Record<string, string>;
  let trialId: number;
  let ids: number[];

  beforeAll(async () => {
    t = await createTestApp({ listen: true, withQueue: true });
    a = await teamWithRoles(t, 'Export crash', { hiddenFields: [] });
    await storeMetrics(a, 'Dexcom G7 CGM', ['egv']);
    ({ trialId, ids } = await trialWithParticipants(a, 'Export crash', ['c1@x.example', 'c2@x.example']));
    for (const id of ids) await linkParticipant(t, a, id, 'dexcom');
    env = {
      ENCRYPTION_KEY: t.ctx.config.ENCRYPTION_KEY!,
      SESSION_SECRET: t.ctx.config.SESSION_SECRET!,
      PUBLIC_URL: t.ctx.config.publicUrl,
      SEED_DEMO: 'false',
    };
  }, 120_000);
  afterAll(() => t?.close());

  it('SIGKILL mid-job: no half file visible; after a restart exactly one valid ZIP', async () => {
    const first = startWorker(t, env);
    let second: ReturnType<typeof startWorker> | null = null;
    try {
      await until(
        async () => first.output().includes('is running jobs'),
        () => 'the first worker',
        60_000,
      );
      const device = (
        (await a.as.User.get('/api/dataExport/devices')).json() as Array<{ id: number; friendlyName: string }>
      ).find((d) => d.friendlyName === 'Dexcom G7 CGM')!.id;
      const startDate = dateAgo(100);
      const endDate = dateAgo(1);
      const res = await a.as.User.post('/api/dataExport/batchDataExport', {
        trialId,
        deviceId: device,
        participantIds: ids,
        startDate,
        endDate,
        metrics: ['egv'],
        fileName: 'crash test',
        exportMode: 'single-tab',
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().jobId as string;
      const row = () =>
        t.ctx.db.selectFrom('export_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      // The request woke the worker through pg-boss; kill it while it works.
      await until(
        async () => (await row()).status === 'processing',
        () => first.output(),
        60_000,
      );
      await new Promise((r) => setTimeout(r, 1_500));
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));
      const killed = await row();
      expect(killed.status).toBe('processing');
      expect(killed.attempts).toBe(1);
      const key = storageKeyOf(a.teamId, id);
      expect(await exportStorage(t.ctx.config).open(key)).toBeNull();
      expect((await a.as.User.get(`/api/dataExport/jobs/${id}/download`)).statusCode).toBe(409);

      second = startWorker(t, env);
      const out = second;
      // The lease runs out (15 s); the sweep wakes the job and the new worker takes it over. The
      // sweep runs every minute (its cron): run once as soon as the lease has run out, the test does
      // not wait up to a minute for the cron's turn.
      await until(
        async () => {
          const { lease_expires_at: lease } = await row();
          return lease !== null && new Date(lease).getTime() < Date.now();
        },
        () => `the lease to run out; job ${JSON.stringify(killed)}`,
        60_000,
      );
      // …which the workers scheduled every minute.
      const { rows: crons } = await sql<{ cron: string }>`
        SELECT cron FROM pgboss.schedule WHERE name = ${dataExportSweep.name}`.execute(t.ctx.db);
      expect(crons).toEqual([{ cron: '* * * * *' }]);
      await enqueue(t.ctx.boss!, dataExportSweep, {});
      await until(
        async () => (await row()).status === 'completed',
        () => `completion; job ${JSON.stringify(killed)}\n${out.output()}`,
        150_000,
      );
      const done = await row();
      expect(done.attempts).toBe(2);

      // Exactly one file for the job, no temporary leftovers.
      const dir = path.join(t.dataDir, 'exports');
      const files = fs
        .readdirSync(dir, { recursive: true })
        .map(String)
        .filter((f) => f.includes(id));
      expect(files).toEqual([key]);

      const dl = await a.as.User.get(`/api/dataExport/jobs/${id}/download`);
      expect(dl.statusCode).toBe(200);
      const zip = await zipEntries(dl.rawPayload);
      const manifest = JSON.parse(zip.get('manifest.json')!.toString('utf8'));
      for (const f of manifest.files as Array<{ name: string; rows: number; sha256: string }>) {
        expect(sha256(zip.get(f.name)!)).toBe(f.sha256);
        expect(parseCsv(zip.get(f.name)!.toString('utf8')).rows.length).toBe(f.rows);
      }
      const data = [...zip.keys()].filter((n) => n !== 'manifest.json' && n !== 'data_dictionary.csv');
      expect(data).toHaveLength(1);
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
      expect(rows.length).toBeGreaterThan(2 * 95 * 280);
      const keys = new Set(rows.map((r) => `${r.participant_code}|${r.measured_at_utc}`));
      expect(keys.size).toBe(rows.length);
    } finally {
      first.child.kill('SIGKILL');
      second?.child.kill('SIGTERM');
      if (second && second.child.exitCode === null) await new Promise((r) => second!.child.once('exit', r));
    }
  }, 300_000);
});
