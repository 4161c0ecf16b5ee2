/*
 * The export calls (admin §7): each list, each §5 message exact with one
 * violation at a time, the server's own refusals, role rules (Viewer 403),
 * team scoping (another team's job is invisible; download, delete and cancel
 * of it are 404), download headers, delete, cancel, expiry (410, file gone).
 */
import { EXPORT_MESSAGES as M } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireExports } from '../../src/jobs/data-export/job.js';
import { MAX_ATTEMPTS, runExport } from '../../src/jobs/data-export/run-export.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { allMail, mailText } from '../support/mail.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';
import { zipEntries } from './export-zip.js';

const DAY = 86_400_000;
const clock = testClock(new Date().toISOString());
const dateAgo = (days: number) => new Date(clock.now().getTime() - days * DAY).toISOString().slice(0, 10);

describe('batch data export calls', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let fitbitDevice: number;
  let trialSeq = 0;
  /**
   * A trial for the tests that only read or are refused: they change nothing of it, and linking a
   * trial for each of them would run into the consent page's rate limit (30 a minute). A test that
   * runs an export makes a trial of its own (newTrial), whose devices nothing has called.
   */
  let fixed: Awaited<ReturnType<typeof newTrial>>;

  /** The team stores Fitbit steps and distance; answers the ids of its Fitbit and Omron devices. */
  async function storesFitbit(team: TeamFixture) {
    await storeMetrics(team, 'Fitbit Sense', ['steps', 'distance']);
    const devices = (await team.as.User.get('/api/dataExport/devices')).json() as Array<{
      id: number;
      friendlyName: string;
    }>;
    return {
      fitbit: devices.find((d) => d.friendlyName === 'Fitbit Sense')!.id,
      omron: devices.find((d) => d.friendlyName === 'Omron Blood Pressure Monitor')!.id,
    };
  }

  /**
   * A trial of its own for one test (of team A and its Fitbit device unless told): two participants linked to Fitbit, whose
   * devices nothing has called yet, and one unlinked; `body` asks an export of the linked two.
   */
  async function newTrial(team: TeamFixture = a, deviceId = fitbitDevice) {
    trialSeq += 1;
    const trialNumber = String(trialSeq);
    const { trialId, ids } = await trialWithParticipants(
      team,
      'Export API',
      [`p1.${trialSeq}@x.example`, `p2.${trialSeq}@x.example`, `unlinked.${trialSeq}@x.example`],
      trialNumber,
    );
    await linkParticipant(t, team, ids[0]!, 'fitbit');
    await linkParticipant(t, team, ids[1]!, 'fitbit');
    const body: Record<string, unknown> = {
      trialId,
      deviceId,
      participantIds: [ids[0], ids[1]],
      startDate: dateAgo(5),
      endDate: dateAgo(2),
      metrics: ['steps'],
      fileName: 'api export',
      exportMode: 'single-tab',
    };
    return { trialId, trialNumber, ids, body };
  }
  const jobsTotal = async () => (await a.as.User.get('/api/dataExport/jobs')).json().total as number;
  const listedJob = async (id: string) =>
    (await a.as.User.get('/api/dataExport/jobs')).json().data.find((j: { id: string }) => j.id === id);

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Export API A', { hiddenFields: ['email'] });
    b = await teamWithRoles(t, 'Export API B', { hiddenFields: [] });
    fitbitDevice = (await storesFitbit(a)).fitbit;
    fixed = await newTrial();
  }, 120_000);
  afterAll(() => t?.close());

  it('lists trials, devices, participants (linked to the brand; hidden email null) and metrics', async () => {
    // A team of its own: its only trial, and no jobs yet.
    const own = await teamWithRoles(t, 'Export API lists', { hiddenFields: ['email'] });
    const { fitbit: fitbitDevice, omron: omronDevice } = await storesFitbit(own);
    const { trialId, trialNumber, ids } = await newTrial(own, fitbitDevice);
    const trials = (await own.as.User.get('/api/dataExport/trials')).json();
    expect(trials).toEqual([{ trialId, trialName: 'Export API', trialNumber }]);
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

  it('request → job; team scoping; download with its headers; delete; expiry → 410 and the file gone', async () => {
    const { body } = await newTrial();
    const before = await jobsTotal();
    const res = await a.as.User.post('/api/dataExport/batchDataExport', body);
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    expect(created).toEqual({ success: true, message: M.success, error: null, jobId: expect.any(String) });
    const id = created.jobId as string;
    const list = (await a.as.Admin.get('/api/dataExport/jobs?limit=10')).json();
    expect(list.total).toBe(before + 1);
    // The newest first.
    expect(list.data[0]).toMatchObject({
      id,
      status: 'pending',
      job_params: {
        fileName: 'api export',
        startDate: body.startDate,
        endDate: body.endDate,
        participantIds: body.participantIds,
        metrics: ['steps'],
      },
      file_size: null,
      error_message: null,
      progress: null,
    });
    // Not ready yet.
    expect((await a.as.User.get(`/api/dataExport/jobs/${id}/download`)).statusCode).toBe(409);
    expect((await a.as.User.delete(`/api/dataExport/jobs/${id}`)).statusCode).toBe(409);

    // Another team: invisible, and every action on it is 404.
    expect((await b.as.Admin.get('/api/dataExport/jobs')).json()).toEqual({
      success: true,
      data: [],
      total: 0,
    });
    for (const r of [
      await b.as.Admin.get(`/api/dataExport/jobs/${id}/download`),
      await b.as.Admin.delete(`/api/dataExport/jobs/${id}`),
      await b.as.Admin.post(`/api/dataExport/jobs/${id}/cancel`),
    ]) {
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toBe(M.jobNotFound);
    }

    expect(await runExport(t.ctx, id)).toMatchObject({ status: 'completed' });
    const done = await listedJob(id);
    expect(done.status).toBe('completed');
    expect(done.progress.rowsWritten).toBe(done.progress.rowsTotal);
    expect(done.progress.rowsTotal).toBe(8); // 2 participants × 4 days of steps

    const dl = await a.as.User.get(`/api/dataExport/jobs/${id}/download`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/zip');
    expect(dl.headers['content-disposition']).toMatch(/^attachment; filename="api export\.zip"/);
    expect(Number(dl.headers['content-length'])).toBe(dl.rawPayload.length);
    expect(dl.rawPayload.length).toBe(done.file_size);
    expect([...(await zipEntries(dl.rawPayload)).keys()]).toEqual(
      expect.arrayContaining(['manifest.json', 'data_dictionary.csv']),
    );
    // The download and the request are audited with the job's parameters.
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'after', 'user_id'])
      .where('entity_id', '=', id)
      .orderBy('id')
      .execute();
    expect(audit.map((x) => x.action)).toEqual(['data_export.requested', 'data_export.downloaded']);
    expect(audit[0]!.user_id).toBe(a.userIds.User);
    expect(JSON.stringify(audit[0]!.after)).toContain('api export');

    // 7 days later the daily job deletes the file and marks the job expired: 410, and the panel says so.
    const key = (
      await t.ctx.db
        .selectFrom('export_jobs')
        .select('storage_key')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).storage_key!;
    const { exportStorage } = await import('../../src/features/data-export/service.js');
    expect(await exportStorage(t.ctx.config).open(key)).not.toBeNull();
    clock.advance(7 * DAY + 60_000);
    try {
      expect(await expireExports(t.ctx)).toEqual({ expired: 1, temporaries: { files: 0, bytes: 0 } });
    } finally {
      clock.advance(-(7 * DAY + 60_000));
    }
    expect(await exportStorage(t.ctx.config).open(key)).toBeNull();
    const gone = await a.as.User.get(`/api/dataExport/jobs/${id}/download`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toBe(M.expired);
    const expired = await listedJob(id);
    expect(expired).toMatchObject({ status: 'expired', error_message: M.expiredNote });

    // Delete: the row goes, audited.
    const del = await a.as.Admin.delete(`/api/dataExport/jobs/${id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toMatchObject({ success: true, message: M.deleted });
    expect((await a.as.Admin.get('/api/dataExport/jobs')).json().total).toBe(before);
    expect((await a.as.Admin.delete(`/api/dataExport/jobs/${id}`)).statusCode).toBe(404);
  }, 60_000);

  it('delete of a completed job removes its file; cancel of a pending job: it never runs; only finished jobs are deleted', async () => {
    const { body } = await newTrial();
    const id = (await a.as.User.post('/api/dataExport/batchDataExport', body)).json().jobId as string;
    expect(await runExport(t.ctx, id)).toMatchObject({ status: 'completed' });
    const key = (
      await t.ctx.db
        .selectFrom('export_jobs')
        .select('storage_key')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).storage_key!;
    const { exportStorage } = await import('../../src/features/data-export/service.js');
    expect((await a.as.User.post(`/api/dataExport/jobs/${id}/cancel`)).json().message).toBe(M.cannotCancel);
    expect((await a.as.User.delete(`/api/dataExport/jobs/${id}`)).statusCode).toBe(200);
    expect(await exportStorage(t.ctx.config).open(key)).toBeNull();

    const pending = (await a.as.User.post('/api/dataExport/batchDataExport', body)).json().jobId as string;
    const c = await a.as.User.post(`/api/dataExport/jobs/${pending}/cancel`);
    expect(c.statusCode, c.body).toBe(200);
    expect(c.json()).toMatchObject({ success: true, message: M.cancelled, job: { status: 'cancelled' } });
    expect(await runExport(t.ctx, pending)).toEqual({ status: 'skipped' });
    const actions = await t.ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', '=', pending)
      .orderBy('id')
      .execute();
    expect(actions.map((x) => x.action)).toEqual(['data_export.requested', 'data_export.cancelled']);
    expect((await a.as.User.delete(`/api/dataExport/jobs/${pending}`)).statusCode).toBe(200);
  }, 60_000);

  it("a device the sync may not call yet holds the export until then (a 429's Retry-After), then it completes", async () => {
    const { ids, body } = await newTrial();
    const id = (
      await a.as.User.post('/api/dataExport/batchDataExport', {
        ...body,
        // Not fetched yet: the job calls Fitbit.
        startDate: dateAgo(20),
        endDate: dateAgo(10),
        fileName: 'rate-limited',
      })
    ).json().jobId as string;
    await simControl(t, 'fitbit').failNext(429);
    expect(await runExport(t.ctx, id)).toEqual({ status: 'deferred' });
    // The job waits exactly as long as the device: its next allowed call (the Retry-After).
    const job = await t.ctx.db
      .selectFrom('export_jobs')
      .select(['status', 'not_before', 'phase'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const devicesOfTrial = t.ctx.db
      .selectFrom('participant_devices')
      .select('id')
      .where('participant_id', 'in', [ids[0]!, ids[1]!]);
    const device = await t.ctx.db
      .selectFrom('device_sync_state')
      .select('next_allowed_at')
      .where('participant_device_id', 'in', devicesOfTrial)
      .where('next_allowed_at', 'is not', null)
      .orderBy('next_allowed_at', 'desc')
      .executeTakeFirstOrThrow();
    // Waiting for Fitbit's limit (issue #21): the jobs panel says so, with the resume instant.
    expect(job).toMatchObject({ status: 'pending', phase: 'provider limit:Fitbit' });
    const listed = (await a.as.User.get('/api/dataExport/jobs'))
      .json()
      .data.find((j: { id: string }) => j.id === id);
    expect(listed.waiting).toEqual({ brand: 'Fitbit', resumesAt: job.not_before?.toISOString() });
    expect(job.not_before?.getTime()).toBeGreaterThan(clock.now().getTime());
    expect(job.not_before?.toISOString()).toBe(device.next_allowed_at?.toISOString());
    let wait = job.not_before!.getTime() - clock.now().getTime();
    clock.advance(wait - 1000);
    expect(await runExport(t.ctx, id)).toEqual({ status: 'skipped' });
    clock.advance(1000);
    // Waiting is not failing: more rate limits in a row than MAX_ATTEMPTS still end in the file.
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await simControl(t, 'fitbit').failNext(429);
      expect(await runExport(t.ctx, id)).toEqual({ status: 'deferred' });
      const again = await t.ctx.db
        .selectFrom('export_jobs')
        .select(['not_before', 'attempts'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(again.attempts).toBe(0);
      const step = again.not_before!.getTime() - clock.now().getTime();
      clock.advance(step);
      wait += step;
    }
    expect(await runExport(t.ctx, id)).toMatchObject({ status: 'completed' });
    // The clock goes back (the sessions' idle limit); the device's wait, over, must not come back with it.
    clock.advance(-wait);
    await t.ctx.db
      .updateTable('device_sync_state')
      .set({ next_allowed_at: null })
      .where('participant_device_id', 'in', devicesOfTrial)
      .execute();
    expect((await a.as.User.delete(`/api/dataExport/jobs/${id}`)).statusCode).toBe(200);
  }, 60_000);

  it('a provider down on every attempt: the job retries, then fails with a clear message, and the requester is emailed', async () => {
    const { body } = await newTrial();
    // A range not fetched yet, so the job must call Fitbit, which answers 500 to everything for a while.
    const id = (
      await a.as.User.post('/api/dataExport/batchDataExport', {
        ...body,
        startDate: dateAgo(40),
        endDate: dateAgo(30),
        fileName: 'failing',
      })
    ).json().jobId as string;
    await simControl(t, 'fitbit').failNext(500, 50);
    const startedAt = clock.now().getTime();
    try {
      expect(await runExport(t.ctx, id)).toEqual({ status: 'retry' });
      // Waiting: not before its retry time, which is the device's own back-off (60–90 s after a
      // first failure), not the export's 10 s: nothing calls the failing provider sooner.
      clock.advance(11_000);
      expect(await runExport(t.ctx, id)).toEqual({ status: 'skipped' });
      clock.advance(80_000);
      expect(await runExport(t.ctx, id)).toEqual({ status: 'retry' });
      // The second failure in a row backs off 120–180 s.
      clock.advance(119_000);
      expect(await runExport(t.ctx, id)).toEqual({ status: 'skipped' });
      clock.advance(62_000);
      const last = await runExport(t.ctx, id);
      expect(last).toMatchObject({ status: 'failed' });
    } finally {
      await simControl(t, 'fitbit').failNext(500, 0);
      // The clock goes back for the other tests.
      clock.advance(startedAt - clock.now().getTime());
    }
    const job = (await a.as.User.get('/api/dataExport/jobs'))
      .json()
      .data.find((j: { id: string }) => j.id === id);
    expect(job.status).toBe('failed');
    expect(job.error_message).toMatch(
      /^The export failed: Provider unavailable \(500\).*Please try again\.$/,
    );
    // Failed jobs can be deleted, not downloaded.
    expect((await a.as.User.get(`/api/dataExport/jobs/${id}/download`)).statusCode).toBe(409);
    const mails = await allMail(t.dataDir, (raw) => raw.includes('data export failed') && raw.includes(id));
    expect(mails).toHaveLength(1);
    const text = mailText(mails[0]!);
    expect(text).toContain('"failing"');
    expect(text).toContain(`${t.ctx.config.publicUrl}/DataExport`);
    expect((await a.as.User.delete(`/api/dataExport/jobs/${id}`)).statusCode).toBe(200);
  }, 60_000);
});
