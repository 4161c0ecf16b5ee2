/*
 * Export turns with the real worker (issue 21 §2): one user's backlog runs one
 * export at a time (EXPORT_LIMITS.runningPerUser), so a colleague's export
 * starts at once and completes within a minute while the backlog's first job
 * is held at its first step; then the backlog runs, one job after another.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataExport } from '../../src/jobs/data-export/job.js';
import { startJobWorkers } from '../../src/jobs/runner.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

const DAY = 86_400_000;

describe("with the real worker: a colleague's export completes while one user's backlog runs", () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;
  let ids: number[];
  let dexcom: number;
  let fitbit: number;
  const locks: pg.Client[] = [];
  const dateAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await createTestApp({ listen: true, withQueue: true });
    a = await teamWithRoles(t, 'Export fair', { hiddenFields: [] });
    await storeMetrics(a, 'Dexcom G7 CGM', ['egv']);
    await storeMetrics(a, 'Fitbit Sense', ['steps']);
    ({ trialId, ids } = await trialWithParticipants(a, 'Export fair', [
      'f1@x.example',
      'f2@x.example',
      'f3@x.example',
    ]));
    await linkParticipant(t, a, ids[0]!, 'dexcom');
    await linkParticipant(t, a, ids[1]!, 'dexcom');
    await linkParticipant(t, a, ids[2]!, 'fitbit');
    const devices = (await a.as.User.get('/api/dataExport/devices')).json() as Array<{
      id: number;
      friendlyName: string;
    }>;
    dexcom = devices.find((d) => d.friendlyName === 'Dexcom G7 CGM')!.id;
    fitbit = devices.find((d) => d.friendlyName === 'Fitbit Sense')!.id;
    await startJobWorkers(t.ctx, t.ctx.boss!, [dataExport], {
      info: () => {},
      error: (m, err) => console.error(m, err),
    });
  }, 120_000);
  afterAll(async () => {
    for (const c of locks) await c.end().catch(() => {});
    await t?.close();
  });

  /**
   * Hold the exports of a participant's Dexcom at their first provider call:
   * its sync-state row locked (the call budget's update waits for it).
   */
  async function hold(pid: number) {
    const device = await t.ctx.db
      .selectFrom('participant_devices')
      .select('id')
      .where('participant_id', '=', pid)
      .where('provider', '=', 'dexcom')
      .executeTakeFirstOrThrow();
    const c = await t.connectAs('owner');
    locks.push(c);
    await c.query(
      'INSERT INTO device_sync_state (participant_device_id) VALUES ($1) ON CONFLICT DO NOTHING',
      [device.id],
    );
    await c.query('BEGIN');
    await c.query('SELECT 1 FROM device_sync_state WHERE participant_device_id = $1 FOR UPDATE', [device.id]);
    return async () => {
      await c.query('COMMIT');
    };
  }

  const status = async (id: string) =>
    (
      await t.ctx.db
        .selectFrom('export_jobs')
        .select(['status', 'started_at', 'completed_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;

  it("one user's backlog runs one job at a time; a colleague's export starts at once and completes within a minute", async () => {
    const releaseFirst = await hold(ids[0]!);
    try {
      const userJob = async (pid: number, name: string) => {
        const res = await a.as.User.post('/api/dataExport/batchDataExport', {
          trialId,
          deviceId: dexcom,
          participantIds: [pid],
          metrics: ['egv'],
          startDate: dateAgo(20),
          endDate: dateAgo(1),
          fileName: name,
          exportMode: 'single-tab',
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().jobId as string;
      };
      const u1 = await userJob(ids[0]!, 'backlog 1');
      const u2 = await userJob(ids[1]!, 'backlog 2');
      const u3 = await userJob(ids[1]!, 'backlog 3');
      await until(async () => (await status(u1)) === 'processing', 'the backlog running', 30_000);
      // The team's second slot is not the backlog's: one running export per person.
      expect(await status(u2)).toBe('pending');
      expect(await status(u3)).toBe('pending');
      const requestedAt = Date.now();
      const res = await a.as.Admin.post('/api/dataExport/batchDataExport', {
        trialId,
        deviceId: fitbit,
        participantIds: [ids[2]],
        metrics: ['steps'],
        startDate: dateAgo(4),
        endDate: dateAgo(1),
        fileName: 'colleague',
        exportMode: 'single-tab',
      });
      expect(res.statusCode, res.body).toBe(200);
      const c1 = res.json().jobId as string;
      await until(async () => (await status(c1)) !== 'pending', "the colleague's export starting", 30_000);
      expect(Date.now() - requestedAt).toBeLessThan(30_000);
      await until(async () => (await status(c1)) === 'completed', "the colleague's export", 60_000);
      expect(Date.now() - requestedAt).toBeLessThan(60_000);
      // All the while the backlog's first job ran and the others waited for it.
      expect(await status(u1)).toBe('processing');
      expect(await status(u2)).toBe('pending');
      expect(await status(u3)).toBe('pending');
      // Then the backlog runs, one after the other.
      await releaseFirst();
      await until(
        async () => (await Promise.all([u1, u2, u3].map(status))).every((x) => x === 'completed'),
        'the backlog',
        90_000,
      );
    } finally {
      await releaseFirst().catch(() => {});
    }
  }, 180_000);
});
