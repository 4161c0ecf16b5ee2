/*
 * Export jobs against the simulators, stopping and waiting: cancel during
 * processing stops the job at its next look and leaves no file; at most two
 * jobs of a team run at once, the rest wait in order, and another team is not
 * held up. What the jobs write: export-job.int.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EXPORT_MESSAGES as M } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport } from '../../src/jobs/data-export/run-export.js';
import type { TeamFixture } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import type { TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';
import { dateAgo, type ExportJobWorld, exportJobWorld } from './support/export-job-world.js';

describe('export jobs against the simulators: cancel and the queue', () => {
  let t: TestApp;
  let a: TeamFixture;
  let devices: ExportJobWorld['devices'];
  let w: ExportJobWorld;
  let other: TeamFixture;

  beforeAll(async () => {
    w = await exportJobWorld();
    ({ t, a, other, devices } = w);
  }, 180_000);
  afterAll(() => t?.close());
  const newTrial = (providers: Parameters<ExportJobWorld['newTrial']>[0]) => w.newTrial(providers);
  const jobRow = (id: string) => w.jobRow(id);

  it('cancel during processing: the worker stops at its next look (no further provider call), the job is cancelled and no file is left', async () => {
    // A long Dexcom range not stored yet: the job spends seconds fetching.
    const { ids, users, request } = await newTrial(['dexcom']);
    const sim = simControl(t, 'dexcom');
    const user = users.get(`dexcom:${ids[0]}`)!;
    const id = await request({
      deviceId: devices.get('Dexcom G7 CGM'),
      participantIds: [ids[0]],
      metrics: ['egv'],
      startDate: dateAgo(300),
      endDate: dateAgo(1),
    });
    const run = runExport(t.ctx, id);
    await until(async () => (await jobRow(id)).status === 'processing', 'processing');
    await new Promise((r) => setTimeout(r, 300));
    const res = await a.as.User.post(`/api/dataExport/jobs/${id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    const callsAtCancel = await sim.calls(user);
    expect(await run).toEqual({ status: 'cancelled' });
    // The promise is that the worker stops at its next look (every 200 ms) and never makes the next
    // call: at most the call in flight at the cancel completes. No wall-clock bound: on a shared
    // 2-core machine, with the simulator generating its answers in this same process, the call in
    // flight alone once took 6 s; the call count is what proves the stop, the test timeout a hang.
    expect(await sim.calls(user)).toBeLessThanOrEqual(callsAtCancel + 1);
    const row = await jobRow(id);
    expect(row).toMatchObject({ status: 'cancelled', error_message: M.cancelledByUser, storage_key: null });
    const dir = path.join(t.dataDir, 'exports');
    const leftovers = fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { recursive: true })
          .map(String)
          .filter((f) => f.includes(id))
      : [];
    expect(leftovers).toEqual([]);
    expect((await a.as.User.get(`/api/dataExport/jobs/${id}/download`)).statusCode).toBe(409);
  }, 60_000);

  it('at most two jobs of a team run at once; the others wait in the order requested', async () => {
    // Slow jobs: long ranges not stored yet (Dexcom for two participants), by two people of the
    // team (one person runs one export at a time: EXPORT_LIMITS.runningPerUser).
    const { ids, request } = await newTrial(['fitbit', 'dexcom']);
    const slow = (pid: number, role: 'User' | 'Admin') =>
      request(
        {
          deviceId: devices.get('Dexcom G7 CGM'),
          participantIds: [pid],
          metrics: ['egv'],
          startDate: dateAgo(90),
          endDate: dateAgo(1),
        },
        role,
      );
    const first = await slow(ids[1]!, 'User');
    const second = await slow(ids[2]!, 'Admin');
    const third = await request({
      deviceId: devices.get('Fitbit Sense'),
      metrics: ['steps'],
      startDate: dateAgo(12),
      endDate: dateAgo(2),
    });
    // Out of order: the third may not jump the queue while the first two wait.
    expect(await runExport(t.ctx, third)).toEqual({ status: 'waiting' });
    // Another team is not held up by this one's jobs.
    await storeMetrics(other, 'Fitbit Sense', ['steps']);
    const { trialId: ot, ids: oids } = await trialWithParticipants(other, 'Other', ['o1@x.example']);
    await linkParticipant(t, other, oids[0]!, 'fitbit');
    const od = (
      (await other.as.User.get('/api/dataExport/devices')).json() as Array<{
        id: number;
        friendlyName: string;
      }>
    ).find((d) => d.friendlyName === 'Fitbit Sense')!.id;
    const otherJob = (
      await other.as.User.post('/api/dataExport/batchDataExport', {
        trialId: ot,
        deviceId: od,
        participantIds: oids,
        metrics: ['steps'],
        startDate: dateAgo(5),
        endDate: dateAgo(2),
        fileName: 'o',
        exportMode: 'single-tab',
      })
    ).json().jobId as string;
    const runs = [runExport(t.ctx, first), runExport(t.ctx, second)];
    await until(
      async () =>
        (await jobRow(first)).status === 'processing' && (await jobRow(second)).status === 'processing',
      'two running',
    );
    expect(await runExport(t.ctx, third)).toEqual({ status: 'waiting' });
    expect((await jobRow(third)).status).toBe('pending');
    expect((await jobRow(first)).status).toBe('processing');
    expect(await runExport(t.ctx, otherJob)).toMatchObject({ status: 'completed' });
    expect((await jobRow(first)).status).toBe('processing');
    for (const r of await Promise.all(runs)) expect(r).toMatchObject({ status: 'completed' });
    expect(await runExport(t.ctx, third)).toMatchObject({ status: 'completed' });
  }, 180_000);
});
