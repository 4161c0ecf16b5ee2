/*
 * The first hour (issue #26, done when): on a fresh start the export page,
 * as the demo `admin`, produces a ZIP with data without any configuration.
 * The demo is seeded as `npm start` seeds it; its Omron and Dexcom links
 * (trial 004) were granted by the mounted simulators, the team stores each
 * device's usual metrics, and the first sync (the device-sync job's handler,
 * as the worker runs it after startDemoSync) stores the simulators' readings.
 * Then the export calls the page makes, as `admin`: the trial, the device,
 * its participants and metrics as listed, a request, the job, the download.
 */
import { kgToLb } from '@trialwear/contract';
import { omronDay } from '@trialwear/simulators';
import { addDays } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport } from '../../src/jobs/data-export/run-export.js';
import { checkDeviceHealth } from '../../src/jobs/device-health/check-device.js';
import { deviceSync } from '../../src/jobs/device-sync/job.js';
import { registerJobQueues } from '../../src/jobs/runner.js';
import {
  DEMO_HOME_LINKS,
  DEMO_HOME_TRIAL,
  DEMO_PASSWORD,
  seedDemo,
  startDemoSync,
} from '../../src/seed/demo.js';
import type { TestClient } from '../support/test-app.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { parseCsv, zipEntries } from './export-zip.js';

// The simulators answer on real time: so does this app (the export's dates are checked against it).
const today = () => new Date().toISOString().slice(0, 10);

describe('demo on first start: an export with data, no configuration', () => {
  let t: TestApp;
  let admin: TestClient;
  let teamId: number;
  beforeAll(async () => {
    t = await createTestApp({ listen: true, withQueue: true });
    ({ teamId } = await seedDemo(t.ctx));
    await registerJobQueues(t.ctx.boss!, [deviceSync]);
    admin = t.client();
    await admin.login('admin', DEMO_PASSWORD);
  }, 120_000);
  afterAll(() => t?.close());

  /** The trial, device, participants and metrics as the export page lists them to `admin`. */
  async function exportForm(deviceName: string) {
    const trials = (await admin.get('/api/dataExport/trials')).json() as Array<{
      trialId: number;
      trialNumber: string;
    }>;
    const trial = trials.find((x) => x.trialNumber === DEMO_HOME_TRIAL)!;
    const devices = (await admin.get('/api/dataExport/devices')).json() as Array<{
      id: number;
      friendlyName: string;
    }>;
    const device = devices.find((d) => d.friendlyName === deviceName)!;
    const participants = (
      await admin.get(`/api/dataExport/trials/${trial.trialId}/participants/${device.id}`)
    ).json() as Array<{ participantId: number; participantCode: string }>;
    const metrics = (await admin.get(`/api/dataExport/metrics/${device.id}`)).json() as Array<{
      metric_key: string;
    }>;
    return { trial, device, participants, metrics: metrics.map((m) => m.metric_key) };
  }

  /** Requests the export of the last 29 days as the page does, runs its job, answers data.csv's rows. */
  async function exportRows(form: Awaited<ReturnType<typeof exportForm>>, fileName: string) {
    const res = await admin.post('/api/dataExport/batchDataExport', {
      trialId: form.trial.trialId,
      deviceId: form.device.id,
      participantIds: form.participants.map((p) => p.participantId),
      startDate: addDays(today(), -29),
      endDate: today(),
      metrics: form.metrics,
      fileName,
      exportMode: 'single-tab',
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { jobId: string }).jobId;
    expect(await runExport(t.ctx, id)).toMatchObject({ status: 'completed' });
    const zip = await admin.get(`/api/dataExport/jobs/${id}/download`);
    expect(zip.statusCode).toBe(200);
    const entries = await zipEntries(zip.rawPayload);
    return parseCsv(entries.get('data.csv')!.toString('utf8')).rows.filter((r) => r.participant_code);
  }

  it("links Omron and Dexcom through the simulators, stores each device's metrics, and the first sync fills an export", async () => {
    const links = await t.ctx.db
      .selectFrom('participant_devices as d')
      .innerJoin('participants as p', 'p.id', 'd.participant_id')
      .select(['d.id', 'd.provider', 'd.provider_user_id', 'p.participant_code'])
      .where('d.team_id', '=', teamId)
      .where('d.provider', 'in', ['omron', 'dexcom'])
      .orderBy('p.participant_code')
      .orderBy('d.provider')
      .execute();
    expect(links.map((l) => [l.participant_code, l.provider])).toEqual(
      Object.entries(DEMO_HOME_LINKS).flatMap(([code, providers]) =>
        [...providers].sort().map((p) => [code, p]),
      ),
    );
    // The first start enqueues every link's sync (here run by the handler, as the worker would);
    // the hourly device check reads the links too (their tokens are the simulators' own).
    expect(await startDemoSync(t.ctx)).toBeGreaterThanOrEqual(links.length);
    for (const l of links) {
      const checked = await checkDeviceHealth(t.ctx, l.id);
      expect(checked.status, `${l.participant_code} ${l.provider}: ${checked.error}`).toBe('checked');
    }
    for (const l of links)
      expect(
        await deviceSync.handler(t.ctx, { deviceId: l.id }),
        `${l.participant_code} ${l.provider}`,
      ).toMatchObject({
        status: 'synced',
      });

    // Omron blood pressure: both Omron participants, the three metrics, the simulator's readings.
    const bp = await exportForm('Omron Blood Pressure Monitor');
    expect(bp.participants.map((p) => p.participantCode)).toEqual(['CHM-001', 'CHM-002']);
    expect([...bp.metrics].sort()).toEqual(['diastolic', 'pulse', 'systolic']);
    const bpRows = await exportRows(bp, 'demo blood pressure');
    expect(new Set(bpRows.map((r) => r.participant_code))).toEqual(new Set(['CHM-001', 'CHM-002']));
    const omron = links.find((l) => l.participant_code === 'CHM-001' && l.provider === 'omron')!;
    // A day inside the range, neither the first (the backfill's edge) nor today (still being measured).
    const days = [...new Set(bpRows.map((r) => r.local_date!))].sort();
    const day = days[Math.floor(days.length / 2)]!;
    expect(
      bpRows
        .filter(
          (r) => r.participant_code === 'CHM-001' && r.metric_key === 'systolic' && r.local_date === day,
        )
        .map((r) => Number(r.value)),
    ).toEqual(omronDay(omron.provider_user_id!, day).bloodPressure.map((x) => x.systolic));

    // Omron weight and Dexcom glucose: rows too.
    const scale = await exportForm('Omron Scale');
    expect(scale.metrics).toEqual(['weight']);
    const weightRows = await exportRows(scale, 'demo weight');
    expect(weightRows.length).toBeGreaterThan(0);
    expect(weightRows.every((r) => r.metric_key === 'weight' && r.unit === 'kg')).toBe(true);
    // Beside the stored kg, the Lbs the Omron pages show (decision 044): checkable without converting.
    for (const r of weightRows) {
      expect(r.display_unit).toBe('Lbs');
      expect(Number(r.display_value)).toBe(kgToLb(Number(r.value)));
    }

    const cgm = await exportForm('Dexcom G7 CGM');
    expect(cgm.participants.map((p) => p.participantCode)).toEqual(['CHM-002', 'CHM-003']);
    expect(cgm.metrics).toEqual(['egv']);
    const egvRows = await exportRows(cgm, 'demo glucose');
    // mg/dL is what the Dexcom pages show: no display value.
    expect(egvRows.every((r) => r.display_value === '' && r.display_unit === '')).toBe(true);
    // A day of values every 5 minutes, for each of them.
    for (const code of ['CHM-002', 'CHM-003'])
      expect(egvRows.filter((r) => r.participant_code === code).length, code).toBeGreaterThan(288);
  }, 180_000);
});
