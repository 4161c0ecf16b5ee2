/*
 * The nightly REDCap push's schedule (decision 048): one `redcap-push` job
 * per trial whose push is on, for the last 7 complete UTC dates; another
 * slot while it waits adds none (stately, one per trial).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { redcapPush, redcapPushSchedule } from '../../src/jobs/redcap-push/job.js';
import { registerJobQueues } from '../../src/jobs/runner.js';
import { teamWithRoles } from '../support/fixtures.js';
import { trialWithParticipants } from '../support/linked-participant.js';
import { dailyProject, dailySettings, fakeRedcap } from '../support/redcap.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true, withQueue: true, now: testClock('2027-03-20T05:20:00Z').now });
  await registerJobQueues(t.ctx.boss!, [redcapPush]);
}, 60_000);
afterAll(() => t?.close());

it('enqueues one push per trial with push on, for the last 7 days', async () => {
  const a = await teamWithRoles(t, 'Redcap nightly');
  const redcap = fakeRedcap(t);
  const trials: number[] = [];
  for (const [n, pushEnabled] of [
    ['1', true],
    ['2', false],
  ] as const) {
    const { trialId } = await trialWithParticipants(a, `Nightly ${n}`, [], n);
    const { token } = await redcap.project(dailyProject());
    const saved = await a.as.Admin.put(`/api/trials/${trialId}/redcap`, {
      ...dailySettings(redcap.apiUrl, token),
      pushEnabled,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    trials.push(trialId);
  }
  const queued = async () =>
    (
      await sql<{
        data: unknown;
      }>`SELECT data FROM pgboss.job WHERE name = 'redcap-push' ORDER BY created_on`.execute(t.ctx.db)
    ).rows.map((r) => r.data);
  expect(await redcapPushSchedule.handler(t.ctx, {})).toEqual({
    enqueued: 1,
    from: '2027-03-13',
    to: '2027-03-19',
  });
  expect(await queued()).toEqual([
    { teamId: a.teamId, trialId: trials[0], from: '2027-03-13', to: '2027-03-19' },
  ]);
  expect(await redcapPushSchedule.handler(t.ctx, {})).toMatchObject({ enqueued: 0 });
  expect(await queued()).toHaveLength(1);
});
