/*
 * Export fairness and bounds (issue 21 §2): at most 3 pending or processing
 * exports per user, race-free (a parallel burst accepts exactly 3; the rest
 * are 429 with the contract's message and write nothing); wake-ups
 * deduplicated (the pg-boss queue stays bounded whatever the burst or the
 * sweeps); the claim takes requesters in turns (a colleague's export goes
 * before the later jobs of one user's backlog: the claim itself with a test
 * clock here, the real worker in real time in export-turns-worker.int.test.ts);
 * an end date in the future and reserved file names refused (400, the exact
 * message).
 */
import { EXPORT_LIMITS, EXPORT_MESSAGES as M } from '@trialwear/contract';
import { localDate } from '@trialwear/zone';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataExport, wakeExports } from '../../src/jobs/data-export/job.js';
import * as workerRepo from '../../src/jobs/data-export/repo.js';
import { claimJob } from '../../src/jobs/data-export/run-export.js';
import { registerJobQueues } from '../../src/jobs/runner.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const DAY = 86_400_000;

/** A team with a trial of two participants linked to Fitbit, the metric stored; answers a valid request body. */
async function fitbitSetup(t: TestApp, name: string, dateAgo: (days: number) => string) {
  const team = await teamWithRoles(t, name, { hiddenFields: [] });
  await storeMetrics(team, 'Fitbit Sense', ['steps']);
  const { trialId, ids } = await trialWithParticipants(team, name, [
    `${name.replace(/\W/g, '')}1@x.example`,
    `${name.replace(/\W/g, '')}2@x.example`,
  ]);
  for (const id of ids) await linkParticipant(t, team, id, 'fitbit');
  const devices = (await team.as.User.get('/api/dataExport/devices')).json() as Array<{
    id: number;
    friendlyName: string;
  }>;
  const body = {
    trialId,
    deviceId: devices.find((d) => d.friendlyName === 'Fitbit Sense')!.id,
    participantIds: ids,
    startDate: dateAgo(5),
    endDate: dateAgo(2),
    metrics: ['steps'],
    fileName: 'bounded',
    exportMode: 'single-tab',
  };
  return { team, trialId, ids, body };
}

const wakeUps = async (t: TestApp) =>
  Number(
    (
      await sql<{ n: string }>`SELECT count(*) AS n FROM pgboss.job
        WHERE name = ${dataExport.name} AND state < 'active'`.execute(t.ctx.db)
    ).rows[0]!.n,
  );

describe('the per-user bound and the wake-ups', () => {
  let t: TestApp;
  let a: TeamFixture;
  let body: Record<string, unknown>;
  const dateAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

  beforeAll(async () => {
    // The queue, without workers: the jobs stay pending and the wake-ups stay queued, to be counted.
    t = await createTestApp({ listen: true, withQueue: true });
    await registerJobQueues(t.ctx.boss!, [dataExport]);
    ({ team: a, body } = await fitbitSetup(t, 'Export bound', dateAgo));
  }, 120_000);
  afterAll(() => t?.close());

  it('40 parallel requests of one User: exactly 3 accepted, 37 refused with 429 and the message, nothing else written', async () => {
    await a.as.User.csrfToken();
    const auditBefore = await t.ctx.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        a.as.User.post('/api/dataExport/batchDataExport', { ...body, fileName: `burst ${i}` }),
      ),
    );
    const accepted = answers.filter((r) => r.statusCode === 200);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(accepted).toHaveLength(EXPORT_LIMITS.activePerUser);
    expect(refused).toHaveLength(40 - EXPORT_LIMITS.activePerUser);
    for (const r of refused)
      expect(r.json()).toMatchObject({
        message:
          'You already have 3 exports waiting or running. Wait for one to finish, or cancel one, before requesting another.',
        displayToUser: true,
      });
    // Exactly the accepted jobs exist, and only their requests are audited (a 429 is no access refusal).
    const ids = accepted.map((r) => r.json().jobId as string).sort();
    const rows = await t.ctx.db
      .selectFrom('export_jobs')
      .select(['id', 'status'])
      .where('user_id', '=', a.userIds.User)
      .execute();
    expect(rows.map((r) => r.id).sort()).toEqual(ids);
    expect(rows.every((r) => r.status === 'pending')).toBe(true);
    await new Promise((r) => setTimeout(r, 300)); // audit of refusals is written after the answer
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id', 'user_id'])
      .orderBy('id', 'desc')
      .limit(50)
      .execute();
    const auditAfter = await t.ctx.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(auditAfter.n) - Number(auditBefore.n)).toBe(EXPORT_LIMITS.activePerUser);
    const requested = audit.filter((x) => x.action === 'data_export.requested');
    expect(requested.map((x) => x.entity_id).sort()).toEqual(ids);
    expect(requested.every((x) => x.user_id === a.userIds.User)).toBe(true);

    // Wake-ups: at most one queued per job that may start (2 free slots), not one per request or end.
    expect(await wakeUps(t)).toBeLessThanOrEqual(EXPORT_LIMITS.runningPerTeam);
    // Sweeps and job ends call this over and over: the queue does not grow.
    for (let i = 0; i < 50; i++) {
      await wakeExports(t.ctx, a.teamId);
      await wakeExports(t.ctx, null);
    }
    expect(await wakeUps(t)).toBeLessThanOrEqual(EXPORT_LIMITS.runningPerTeam);

    // A colleague is not bound by this user's jobs.
    const colleague = await a.as.Admin.post('/api/dataExport/batchDataExport', body);
    expect(colleague.statusCode, colleague.body).toBe(200);
    // Once one of the three is cancelled, the user may request again (the bound counts pending and processing).
    expect((await a.as.User.post(`/api/dataExport/jobs/${ids[0]}/cancel`)).statusCode).toBe(200);
    const again = await a.as.User.post('/api/dataExport/batchDataExport', body);
    expect(again.statusCode, again.body).toBe(200);
    const fifth = await a.as.User.post('/api/dataExport/batchDataExport', body);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().message).toBe(M.tooManyActive);
  }, 60_000);
});

describe('turns across requesters, the dates and the file name (test clock)', () => {
  let t: TestApp;
  let a: TeamFixture;
  let body: Record<string, unknown>;
  const clock = testClock(new Date().toISOString());
  const dateAgo = (days: number) => new Date(clock.now().getTime() - days * DAY).toISOString().slice(0, 10);
  const request = async (who: 'User' | 'Admin' | 'Sys_Admin', change: object = {}) => {
    const res = await a.as[who].post('/api/dataExport/batchDataExport', { ...body, ...change });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().jobId as string;
  };
  /** Run a claimed job to its end without doing the work: its slot is freed. */
  const end = async (id: string, owner: string) => {
    expect(await workerRepo.fail(t.ctx.db, id, owner, clock.now(), 'ended by the test')).toBeTruthy();
  };

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    ({ team: a, body } = await fitbitSetup(t, 'Export turns', dateAgo));
  }, 120_000);
  afterAll(() => t?.close());

  it("a colleague's export is claimed before the later jobs of one user's backlog", async () => {
    const u1 = await request('User', { fileName: 'u1' });
    clock.advance(1_000);
    const u2 = await request('User', { fileName: 'u2' });
    clock.advance(1_000);
    const u3 = await request('User', { fileName: 'u3' });
    clock.advance(1_000);
    const c1 = await request('Admin', { fileName: 'c1' });
    // The queue in turns: each requester's first; a person's later jobs wait while one of theirs
    // runs or waits before them (one running export per person: EXPORT_LIMITS.runningPerUser).
    const queue = await workerRepo.waitingJobs(t.ctx.db, a.teamId, clock.now());
    expect(queue.map((j) => j.id)).toEqual([u1, c1]);

    // Two slots: the user's second job is not among the first two, the colleague's is.
    expect(await claimJob(t.ctx, u2)).toEqual({ ok: false, outcome: { status: 'waiting' } });
    const claimC1 = await claimJob(t.ctx, c1);
    const claimU1 = await claimJob(t.ctx, u1);
    if (!claimC1.ok || !claimU1.ok) throw new Error('c1 and u1 should start');
    expect(await claimJob(t.ctx, u3)).toEqual({ ok: false, outcome: { status: 'waiting' } });

    // The colleague's job ends, and 20 s later they ask again: while the user's first job still
    // runs, the colleague's new job takes the free slot before the user's older waiting ones.
    clock.advance(10_000);
    await end(c1, claimC1.owner);
    clock.advance(20_000);
    const c2 = await request('Admin', { fileName: 'c2' });
    expect(await claimJob(t.ctx, u2)).toEqual({ ok: false, outcome: { status: 'waiting' } });
    const claimC2 = await claimJob(t.ctx, c2);
    expect(claimC2.ok).toBe(true);
    expect(
      (
        await t.ctx.db
          .selectFrom('export_jobs')
          .select('status')
          .where('id', '=', u2)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('pending');
    if (!claimC2.ok) return;
    await end(c2, claimC2.owner);
    await end(u1, claimU1.owner);

    // Nothing runs: u2 and c3 both have turn 1; the user was served (u1) before the colleague (c2).
    const c3 = await request('Admin', { fileName: 'c3' });
    const turns = async () =>
      (await workerRepo.waitingJobs(t.ctx.db, a.teamId, clock.now())).map((j) => j.id);
    expect(await turns()).toEqual([u2, c3]);
    clock.advance(5_000);
    const claimU2 = await claimJob(t.ctx, u2);
    if (!claimU2.ok) throw new Error('u2 should start');
    // u3 waits while u2 runs.
    expect(await turns()).toEqual([c3]);
    await end(u2, claimU2.owner);
    // Equal turns again, and u3 is older than c3: the colleague, served least recently, still goes first.
    expect(await turns()).toEqual([c3, u3]);
  });

  it('an end date in the future is refused (400), judged in UTC+14 so that nobody’s today is', async () => {
    const post = (change: object) =>
      a.as.Sys_Admin.post('/api/dataExport/batchDataExport', { ...body, ...change });
    const latest = localDate('Etc/GMT-14', clock.now());
    const after = new Date(Date.parse(`${latest}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
    const res = await post({ startDate: dateAgo(3), endDate: after });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe('End date cannot be in the future.');
    expect(res.json().errors).toEqual([{ path: '', message: M.endInFuture }]);
    // Today in Kiribati (UTC+14) may be tomorrow in UTC: accepted.
    const ok = await post({ startDate: dateAgo(3), endDate: latest, fileName: 'kiribati today' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await a.as.Sys_Admin.post(`/api/dataExport/jobs/${ok.json().jobId}/cancel`)).statusCode).toBe(
      200,
    );
  });

  it.each([
    '.',
    '..',
    'CON',
    'prn',
    'Aux',
    'nul',
    'COM1',
    'com9',
    'LPT1',
    'lpt9',
    'nul.txt',
    'CON.',
    'aux .csv',
  ])('file name %s is reserved: 400 with the message, nothing created', async (fileName) => {
    const before = await t.ctx.db
      .selectFrom('export_jobs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await a.as.Sys_Admin.post('/api/dataExport/batchDataExport', { ...body, fileName });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.map((e: { message: string }) => e.message)).toEqual([M.fileNameReserved]);
    const after = await t.ctx.db
      .selectFrom('export_jobs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});
