/*
 * The export calls (admin §7), requests that run: request → job, team
 * scoping (another team's job is invisible; download, delete and cancel of it
 * are 404), download headers, delete, cancel, expiry (410, file gone); a
 * device's rate limit holds the job; a provider down fails it and mails the
 * requester. Each test exports a trial of its own (newTrial), whose devices
 * nothing has called. Lists and refusals: export-api.int.test.ts.
 */
import { EXPORT_MESSAGES as M } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireExports } from '../../src/jobs/data-export/job.js';
import { MAX_ATTEMPTS, runExport } from '../../src/jobs/data-export/run-export.js';
import type { TeamFixture } from '../support/fixtures.js';
import { simControl } from '../support/linked-participant.js';
import { allMail, mailText } from '../support/mail.js';
import type { TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';
import { zipEntries } from './export-zip.js';
import { DAY, datesAgo, type ExportApiWorld, exportApiWorld } from './support/export-api-world.js';

const clock = testClock(new Date().toISOString());
const dateAgo = datesAgo(clock);

describe('batch data export calls: jobs', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let w: ExportApiWorld;

  beforeAll(async () => {
    w = await exportApiWorld(clock);
    ({ t, a, b } = w);
  }, 120_000);
  afterAll(() => t?.close());
  const newTrial = () => w.newTrial();
  const jobsTotal = () => w.jobsTotal();
  const listedJob = (id: string) => w.listedJob(id);

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
    // The panel's words: the participants' codes (null for one without) and the metric's name, as
    // the form shows them.
    const [first, second] = body.participantIds as number[];
    await t.ctx.db
      .updateTable('participants')
      .set({ participant_code: 'EXP-001', participant_code_suffix: '001' })
      .where('id', '=', first!)
      .execute();
    await t.ctx.db
      .updateTable('device_metric_settings')
      .set({ metric_name: 'Daily steps' })
      .where('team_id', '=', a.teamId)
      .where('metric_key', '=', 'steps')
      .execute();
    const labelled = (await a.as.Admin.get('/api/dataExport/jobs?limit=10')).json().data[0];
    expect(labelled.labels).toEqual({
      participants: { [String(first)]: 'EXP-001', [String(second)]: null },
      metrics: { steps: 'Daily steps' },
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
    // Every completed job of this file's database is 7 days old then (another test's too, in
    // whatever order the tests ran): all of them expire, this one with them.
    const completed = Number(
      (
        await t.ctx.db
          .selectFrom('export_jobs')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('status', '=', 'completed')
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(completed).toBeGreaterThanOrEqual(1);
    clock.advance(7 * DAY + 60_000);
    try {
      expect(await expireExports(t.ctx)).toEqual({ expired: completed, temporaries: { files: 0, bytes: 0 } });
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
