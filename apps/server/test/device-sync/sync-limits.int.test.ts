/*
 * How the sync behaves when the provider or the participant says no: a 429
 * delays the next call at least its Retry-After (and the device's pg-boss
 * job is enqueued again no earlier), a 5xx backs off exponentially with
 * jitter (one call per attempt, none before the next allowed time), the hourly budget stops the
 * sync before it is spent and resumes next hour from the cursors, an expired
 * token is refreshed once, a revoked authorization marks the link errored
 * and no call is made for it any more, and only metrics both enabled by the
 * Sys_Admin and selected by the team are stored.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/app-context.js';
import { BACKFILL_PAUSE_MS, deviceSync } from '../../src/jobs/device-sync/job.js';
import {
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  backoffMs,
  syncDevice,
} from '../../src/jobs/device-sync/sync-device.js';
import { syncNow } from '../../src/jobs/device-sync/sync-now.js';
import { registerJobQueues } from '../../src/jobs/runner.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-04-20T00:40:00Z';
const clock = testClock(NOW);
const METRICS = ['steps', 'distance', 'floors', 'resting_heart_rate'];

describe('sync limits and authorization', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;
  /** The test's start (NOW, here and at the simulator) and its own participant, linked. */
  const linked = async (team: TeamFixture, trial: number, email: string) => {
    clock.set(NOW);
    await simControl(t, 'fitbit').clock(NOW);
    const pid = (await team.as.Admin.post('/api/trialParticipants', { trialId: trial, email })).json()
      .participantId as number;
    const user = await linkParticipant(t, team, pid, 'fitbit');
    const { id } = await t.ctx.db
      .selectFrom('participant_devices')
      .select('id')
      .where('participant_id', '=', pid)
      .executeTakeFirstOrThrow();
    // The callback enqueued the link's first sync (sync-soon.int.test.ts): these tests run the handler themselves.
    await sql`DELETE FROM pgboss.job WHERE name = 'device-sync' AND singleton_key = ${`device-${id}`}`.execute(
      t.ctx.db,
    );
    return { pid, user, deviceId: id };
  };
  const count = async (pid: number) =>
    Number(
      (
        await t.ctx.db
          .selectFrom('device_readings')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('participant_id', '=', pid)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const state = (deviceId: number) =>
    t.ctx.db
      .selectFrom('device_sync_state')
      .selectAll()
      .where('participant_device_id', '=', deviceId)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    // The queue without workers: a test runs the device job's handler and reads what it enqueued.
    t = await createTestApp({ listen: true, now: clock.now, withQueue: true });
    await registerJobQueues(t.ctx.boss!, [deviceSync]);
    a = await teamWithRoles(t, 'Limits', { hiddenFields: [] });
    await storeMetrics(a, 'Fitbit Sense', METRICS);
    ({ trialId } = await trialWithParticipants(a, 'Limits', []));
    await simControl(t, 'fitbit').clock(NOW);
  });
  afterAll(() => t?.close());

  it('a 429 stores the Retry-After: no call is made before it, the sync resumes after it', async () => {
    const p = await linked(a, trialId, 'rl@x.example');
    const sim = simControl(t, 'fitbit');
    await sim.clock(NOW);
    await sim.failNext(429);
    const first = await syncDevice(t.ctx, p.deviceId);
    expect(first.status).toBe('rate_limited');
    // The simulator's window ends at the top of its hour: 01:00, 1200 s after 00:40 (a second or
    // two less when its clock, running on from NOW, has moved on meanwhile on a loaded machine).
    const retryAfter = Number(/Retry-After (\d+) s/.exec(first.errors[0] ?? '')?.[1]);
    // A wait for the provider's limit, not an error (issue #21): sync health says 'waiting' until then.
    expect(await state(p.deviceId)).toMatchObject({
      last_error: null,
      limited_until: new Date(first.nextAllowedAt!),
    });
    expect(retryAfter).toBeGreaterThan(1190);
    expect(retryAfter).toBeLessThanOrEqual(1200);
    expect(Date.parse(first.nextAllowedAt!) - Date.parse(NOW)).toBe(retryAfter * 1000);
    const calls = await sim.calls(p.user);
    clock.advance(retryAfter * 1000 - 1000);
    expect((await syncDevice(t.ctx, p.deviceId)).status).toBe('deferred');
    expect(await sim.calls(p.user)).toBe(calls);
    clock.advance(1000);
    const after = await syncDevice(t.ctx, p.deviceId);
    expect(after.status).toBe('synced');
    expect(after.rowsUpserted).toBeGreaterThan(0);
  });

  /** The device's jobs waiting in pg-boss (state created), with when each may start. */
  const waitingJobs = async (deviceId: number) =>
    (
      await sql<{ id: string; start_after: Date }>`
        SELECT id, start_after FROM pgboss.job
        WHERE name = 'device-sync' AND singleton_key = ${`device-${deviceId}`} AND state = 'created'`.execute(
        t.ctx.db,
      )
    ).rows;

  it("after a 429 the device's job is enqueued again no earlier than Retry-After, and nothing calls sooner", async () => {
    const p = await linked(a, trialId, 'requeue@x.example');
    const sim = simControl(t, 'fitbit');
    await sim.clock(NOW);
    await sim.failNext(429);
    const calls = await sim.calls(p.user);
    const r = (await deviceSync.handler(t.ctx, { deviceId: p.deviceId })) as Awaited<
      ReturnType<typeof syncDevice>
    >;
    expect(r.status).toBe('rate_limited');
    expect(await sim.calls(p.user)).toBe(calls + 1);
    const jobs = await waitingJobs(p.deviceId);
    expect(jobs).toHaveLength(1);
    // The simulator's Retry-After: the seconds to the top of its hour (its clock runs on from NOW).
    const retryAfter = Number(/Retry-After (\d+) s/.exec(r.errors[0] ?? '')?.[1]);
    expect(retryAfter).toBeGreaterThan(1100);
    expect(retryAfter).toBeLessThanOrEqual(1200);
    expect(jobs[0]!.start_after.getTime()).toBe(Date.parse(NOW) + retryAfter * 1000);
    expect(jobs[0]!.start_after.toISOString()).toBe(r.nextAllowedAt);
    // A job started before then (the 15-minute schedule's) makes no call.
    clock.advance(600_000);
    await t.ctx.boss!.cancel('device-sync', jobs[0]!.id);
    expect(((await deviceSync.handler(t.ctx, { deviceId: p.deviceId })) as { status: string }).status).toBe(
      'deferred',
    );
    expect(await sim.calls(p.user)).toBe(calls + 1);
  });

  it('a 5xx backs off exponentially with jitter: one call per attempt, none before the next allowed time', async () => {
    const p = await linked(a, trialId, 'down@x.example');
    const sim = simControl(t, 'fitbit');
    await sim.failNext(503, 3);
    const start = await sim.calls(p.user);
    const waits: number[] = [];
    for (let n = 1; n <= 3; n++) {
      const r = (await deviceSync.handler(t.ctx, { deviceId: p.deviceId })) as Awaited<
        ReturnType<typeof syncDevice>
      >;
      expect(r.status).toBe('unavailable');
      expect(await sim.calls(p.user)).toBe(start + n); // the failed call only: no retry in the job
      const wait = Date.parse(r.nextAllowedAt!) - clock.now().getTime();
      const base = BACKOFF_BASE_MS * 2 ** (n - 1);
      expect(wait).toBeGreaterThanOrEqual(base);
      expect(wait).toBeLessThanOrEqual(base * 1.5);
      const s = await state(p.deviceId);
      expect(s.failure_streak).toBe(n);
      expect(s.next_allowed_at?.toISOString()).toBe(r.nextAllowedAt);
      expect(s.last_error).toBe('Provider unavailable (503): Simulated failure');
      // The job is enqueued again for then, not sooner (pg-boss start_after).
      const [job] = await waitingJobs(p.deviceId);
      expect(job!.start_after.toISOString()).toBe(r.nextAllowedAt);
      // Until then every run is deferred without a call.
      clock.advance(wait - 1000);
      expect((await syncDevice(t.ctx, p.deviceId)).status).toBe('deferred');
      expect(await sim.calls(p.user)).toBe(start + n);
      clock.advance(1000);
      await t.ctx.boss!.cancel('device-sync', job!.id); // as if the worker took it now
      waits.push(wait);
    }
    expect(waits[1]).toBeGreaterThan(waits[0]!);
    expect(waits[2]).toBeGreaterThan(waits[1]!);
    // Jitter: the waits are not exact doublings of one another.
    expect(new Set(waits.map((w, i) => w / 2 ** i)).size).toBeGreaterThan(1);
    // The provider is back: the sync goes on and the streak is over.
    const ok = await syncDevice(t.ctx, p.deviceId);
    expect(ok.status).toBe('synced');
    expect((await state(p.deviceId)).failure_streak).toBe(0);
    expect(await count(p.pid)).toBeGreaterThan(0);
  });

  it('the back-off doubles from 60 s up to 6 hours, times a random 1 to 1.5', () => {
    expect(backoffMs(1, () => 0)).toBe(60_000);
    expect(backoffMs(2, () => 0)).toBe(120_000);
    expect(backoffMs(3, () => 0.5)).toBe(300_000);
    expect(backoffMs(1, () => 0.999)).toBe(89_970);
    expect(backoffMs(30, () => 0)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(30, () => 1)).toBe(BACKOFF_MAX_MS * 1.5);
  });

  it('the hourly budget stops the sync before it is spent and resumes next hour from the cursors', async () => {
    const p = await linked(a, trialId, 'budget@x.example');
    const tight = { ...t.ctx, config: { ...t.ctx.config, SYNC_CALLS_PER_HOUR: 4 } } as AppContext;
    const sim = simControl(t, 'fitbit');
    const callsBefore = await sim.calls(p.user);
    const first = await syncDevice(tight, p.deviceId);
    expect(first.status).toBe('budget');
    expect(first.nextAllowedAt).toBe('2027-04-20T01:00:00.000Z');
    // Four calls counted (profile, steps, distance, floors), then none: the fifth was not made.
    expect((await state(p.deviceId)).budget_calls).toBe(4);
    expect((await sim.calls(p.user)) - callsBefore).toBeLessThanOrEqual(4);
    const partial = await count(p.pid);
    expect(partial).toBeGreaterThan(0);
    expect((await syncDevice(tight, p.deviceId)).status).toBe('deferred');
    clock.advance(20 * 60_000); // 01:00: a new hour
    const second = await syncDevice(tight, p.deviceId);
    expect(second.status).toBe('synced');
    expect(await count(p.pid)).toBeGreaterThan(partial);
    // Nothing lost across the stop: 30 local days of each activity series, as one unhindered sync stores.
    const metrics = await t.ctx.db
      .selectFrom('device_readings')
      .select(['metric_key', (eb) => eb.fn.countAll().as('n')])
      .where('participant_id', '=', p.pid)
      .groupBy('metric_key')
      .orderBy('metric_key')
      .execute();
    expect(metrics.filter((m) => m.metric_key !== 'resting_heart_rate').map((m) => Number(m.n))).toEqual([
      30, 30, 30,
    ]);
  });

  it('an expired access token is refreshed once and the sync goes on', async () => {
    const p = await linked(a, trialId, 'expired@x.example');
    const version = async () =>
      (
        await t.ctx.db
          .selectFrom('provider_tokens')
          .select('version')
          .where('participant_device_id', '=', p.deviceId)
          .executeTakeFirstOrThrow()
      ).version;
    const before = await version();
    await simControl(t, 'fitbit').expire(p.user);
    const r = await syncDevice(t.ctx, p.deviceId);
    expect(r.status).toBe('synced');
    expect(await version()).toBe(before + 1);
    expect(await count(p.pid)).toBeGreaterThan(0);
  });

  it('a revoked authorization marks the link errored; no further call is made for it', async () => {
    const p = await linked(a, trialId, 'revoked@x.example');
    const sim = simControl(t, 'fitbit');
    await sim.post('revoke', { userId: p.user });
    const r = await syncDevice(t.ctx, p.deviceId);
    expect(r.status).toBe('revoked');
    const link = await t.ctx.db
      .selectFrom('participant_devices')
      .select('authorization_status')
      .where('id', '=', p.deviceId)
      .executeTakeFirstOrThrow();
    expect(link.authorization_status).toBe('error');
    expect((await state(p.deviceId)).last_error).toMatch(/authorize again/);
    const calls = await sim.calls(p.user);
    const all = await syncNow(t.ctx);
    expect(all.results.map((x) => x.deviceId)).not.toContain(p.deviceId);
    expect((await syncDevice(t.ctx, p.deviceId)).status).toBe('not_authorized');
    expect(await sim.calls(p.user)).toBe(calls);
  });

  it('stores only metrics both enabled by the Sys_Admin and selected by the team', async () => {
    const b = await teamWithRoles(t, 'Limits B', { hiddenFields: [] });
    // Enabled: steps, distance, floors; selected: steps, distance; then distance disabled again.
    await storeMetrics(b, 'Fitbit Sense', ['steps', 'distance', 'floors'], ['steps', 'distance']);
    await storeMetrics(b, 'Fitbit Sense', ['steps', 'floors'], []);
    const { trialId: trialB } = await trialWithParticipants(b, 'Limits B', []);
    const p = await linked(b, trialB, 'only@x.example');
    const r = await syncDevice(t.ctx, p.deviceId);
    expect(r.metrics).toEqual(['steps']);
    const keys = await t.ctx.db
      .selectFrom('device_readings')
      .select('metric_key')
      .distinct()
      .where('participant_id', '=', p.pid)
      .execute();
    expect(keys.map((k) => k.metric_key)).toEqual(['steps']);
  });

  it('a run that leaves days of an intraday backfill enqueues the next a minute later; the last does not', async () => {
    const b = await teamWithRoles(t, 'Backfill', { hiddenFields: [] });
    await storeMetrics(b, 'Fitbit Sense', ['heart_rate_intraday']);
    const { trialId: trial } = await trialWithParticipants(b, 'Backfill', []);
    const p = await linked(b, trial, 'backfill@x.example');
    // 30 days at 10 a run (each run re-reads the day it stopped at): four runs.
    for (let run = 1; run <= 4; run++) {
      const r = (await deviceSync.handler(t.ctx, { deviceId: p.deviceId })) as {
        status: string;
        more?: boolean;
      };
      expect(r.status).toBe('synced');
      const jobs = await waitingJobs(p.deviceId);
      if (run === 4) {
        expect(r.more).toBeFalsy();
        expect(jobs).toEqual([]);
        break;
      }
      expect(r.more, `run ${run}`).toBe(true);
      expect(jobs.map((j) => j.start_after.getTime())).toEqual([clock.now().getTime() + BACKFILL_PAUSE_MS]);
      await t.ctx.boss!.cancel('device-sync', jobs[0]!.id); // as if the worker took it now
    }
  });
});
