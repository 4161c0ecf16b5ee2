/*
 * The export calls (admin §7), what they list and refuse: each list, each §5
 * message exact with one violation at a time, the server's own refusals, role
 * rules (Viewer 403), another team's trials and devices (404). Requests that
 * run (jobs, downloads, delete, cancel, expiry, waits and failures):
 * export-api-runs.int.test.ts.
 */
import { EXPORT_MESSAGES as M } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import type { TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';
import {
  datesAgo,
  type ExportApiWorld,
  type ExportTrial,
  exportApiWorld,
} from './support/export-api-world.js';

const clock = testClock(new Date().toISOString());
const dateAgo = datesAgo(clock);

describe('batch data export calls: lists and refusals', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let fitbitDevice: number;
  let w: ExportApiWorld;
  /**
   * A trial for the tests that only read or are refused: they change nothing of it, and linking a
   * trial for each of them would run into the consent page's rate limit (30 a minute). A test that
   * runs an export makes a trial of its own (newTrial; export-api-runs.int.test.ts), whose devices
   * nothing has called.
   */
  let fixed: ExportTrial;

  beforeAll(async () => {
    w = await exportApiWorld(clock);
    ({ t, a, b, fitbitDevice } = w);
    fixed = await w.newTrial();
  }, 120_000);
  afterAll(() => t?.close());
  const jobsTotal = () => w.jobsTotal();

  it('lists trials, devices, participants (linked to the brand; hidden email null) and metrics', async () => {
    // A team of its own: its only trial, and no jobs yet.
    const own = await teamWithRoles(t, 'Export API lists', { hiddenFields: ['email'] });
    const { fitbit: fitbitDevice, omron: omronDevice } = await w.storesFitbit(own);
    const { trialId, trialNumber, ids } = await w.newTrial(own, fitbitDevice);
    const trials = (await own.as.User.get('/api/dataExport/trials')).json();
    expect(trials).toEqual([{ trialId, trialName: 'Export API', trialNumber, allowIdentifiedExports: true }]);
    const devices = (await own.as.Admin.get('/api/dataExport/devices')).json() as Array<
      Record<string, unknown>
    >;
    expect(devices.map((d) => d.friendlyName)).toContain('Fitbit Sense');
    expect(devices[0]).toEqual({
      id: expect.any(Number),
      friendlyName: expect.any(String),
      deviceType: expect.any(String),
      manufacturer: expect.any(String),
    });
    const parts = (
      await own.as.User.get(`/api/dataExport/trials/${trialId}/participants/${fitbitDevice}`)
    ).json() as Array<{ participantId: number; participantCode: string | null; email: string | null }>;
    expect(parts.map((p) => p.participantId).sort()).toEqual([ids[0], ids[1]].sort());
    expect(parts.map((p) => p.email)).toEqual([null, null]); // the team hides emails
    // No Omron links: nobody to export for the Omron monitor.
    expect(
      (await own.as.User.get(`/api/dataExport/trials/${trialId}/participants/${omronDevice}`)).json(),
    ).toEqual([]);
    const metrics = (await own.as.User.get(`/api/dataExport/metrics/${fitbitDevice}`)).json() as Array<{
      metric_key: string;
    }>;
    expect(metrics.map((m) => m.metric_key).sort()).toEqual(['distance', 'steps']);
    expect(metrics[0]).toEqual({
      metric_key: expect.any(String),
      metric_name: expect.any(String),
      category: expect.any(String),
      units: expect.any(String),
    });
    // Metrics a Sys_Admin did not enable (or the team does not store) are not offered.
    expect((await own.as.User.get(`/api/dataExport/metrics/${omronDevice}`)).json()).toEqual([]);
    const jobs = (await own.as.User.get('/api/dataExport/jobs?limit=10')).json();
    expect(jobs).toEqual({ success: true, data: [], total: 0 });
  });

  it('another team: its trials and devices are 404 here', async () => {
    const { trialId } = fixed;
    expect(
      (await b.as.Admin.get(`/api/dataExport/trials/${trialId}/participants/${fitbitDevice}`)).statusCode,
    ).toBe(404);
    expect((await b.as.Admin.get(`/api/dataExport/metrics/${fitbitDevice}`)).statusCode).toBe(404);
    expect((await b.as.Admin.get('/api/dataExport/trials')).json()).toEqual([]);
  });

  it('Viewer: every export call is 403; Sys_Admin, Admin and User pass', async () => {
    const { trialId, body } = fixed;
    const calls: Array<[string, string]> = [
      ['GET', '/api/dataExport/trials'],
      ['GET', '/api/dataExport/devices'],
      ['GET', `/api/dataExport/trials/${trialId}/participants/${fitbitDevice}`],
      ['GET', `/api/dataExport/metrics/${fitbitDevice}`],
      ['GET', '/api/dataExport/jobs?limit=10'],
      ['POST', '/api/dataExport/batchDataExport'],
      ['GET', '/api/dataExport/jobs/00000000-0000-4000-8000-000000000000/download'],
      ['DELETE', '/api/dataExport/jobs/00000000-0000-4000-8000-000000000000'],
      ['POST', '/api/dataExport/jobs/00000000-0000-4000-8000-000000000000/cancel'],
    ];
    for (const [method, url] of calls) {
      const res = await a.as.Viewer.request(method as 'GET', url, method === 'GET' ? undefined : body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    for (const role of ['Sys_Admin', 'Admin', 'User'] as const)
      expect((await a.as[role].get('/api/dataExport/trials')).statusCode).toBe(200);
  });

  it.each([
    [{ trialId: undefined }, M.trialRequired],
    [{ deviceId: null }, M.deviceRequired],
    [{ participantIds: [] }, M.participantsRequired],
    [{ startDate: '' }, M.datesRequired],
    [{ endDate: undefined }, M.datesRequired],
    [{ startDate: dateAgo(2), endDate: dateAgo(5) }, M.startAfterEnd],
    [{ startDate: dateAgo(380), endDate: dateAgo(2) }, M.rangeTooLong],
    // within 365 days of each other, but the start is older than a year
    [{ startDate: dateAgo(370), endDate: dateAgo(300) }, M.rangeTooLong],
    [{ metrics: [] }, M.metricsRequired],
    [{ fileName: '' }, M.fileNameRequired],
  ])('one violation at a time: %o → %s (400, nothing created)', async (change, message) => {
    const { body } = fixed;
    const before = await jobsTotal();
    const res = await a.as.User.post('/api/dataExport/batchDataExport', { ...body, ...change });
    expect(res.statusCode, res.body).toBe(400);
    const err = res.json();
    expect([err.message, ...err.errors.map((e: { message: string }) => e.message)]).toContain(message);
    expect(err.errors.map((e: { message: string }) => e.message)).toEqual([message]);
    expect(await jobsTotal()).toBe(before);
  });

  it("format: anything but csv or parquet is the contract's 400, and nothing is created", async () => {
    const before = await jobsTotal();
    for (const format of ['xlsx', 'PARQUET', '', null, 7]) {
      const res = await a.as.User.post('/api/dataExport/batchDataExport', { ...fixed.body, format });
      expect(res.statusCode, String(format)).toBe(400);
      expect(res.json().message).toBe(M.formatInvalid);
    }
    expect(await jobsTotal()).toBe(before);
  });

  it('the server refuses what the lists would not offer', async () => {
    const { ids, body } = fixed;
    const post = (change: object) =>
      a.as.User.post('/api/dataExport/batchDataExport', { ...body, ...change });
    let res = await post({ participantIds: [ids[2]] }); // in the trial, no Fitbit link
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(M.participantsNotEligible);
    res = await post({ metrics: ['floors'] }); // not enabled for the team
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(M.metricsNotAvailable);
    res = await post({ metrics: ['systolic'] }); // not of this device
    expect(res.json().message).toBe(M.metricsNotAvailable);
    res = await b.as.Admin.post('/api/dataExport/batchDataExport', body); // another team's trial
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(M.trialNotFound);
  });
});
