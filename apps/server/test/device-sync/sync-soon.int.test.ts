/*
 * A new link and a newly stored metric are synced at once (issue #21 §4), not
 * at the next 15-minute slot: the OAuth callback, the team's POST …/metric and
 * the Sys_Admin's PUT enqueue the device's `device-sync` job after their
 * commit, with the schedule's singleton key, so a job already waiting is that
 * job (one queued, whatever triggers it). With workers running in the test
 * app and no cron (the queue runs without its scheduler), the readings are
 * stored within a minute. Each test has its own app (its workers started or
 * not) and team (the metrics it stores are the test's to change).
 */
import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import { deviceSync, deviceSyncSchedule } from '../../src/jobs/device-sync/job.js';
import { syncDeviceSoon } from '../../src/jobs/device-sync/sync-soon.js';
import { registerJobQueues, startJobWorkers } from '../../src/jobs/runner.js';
import { teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-04-20T00:40:00Z';
const clock = testClock(NOW);
const DEVICE = 'Fitbit Sense';
const WITHIN_MS = 60_000;
/** A test's own limit: the minute polled, and the link or setting made before it. */
const TIMEOUT = { timeout: 2 * WITHIN_MS };

/** Closes the app once no sync is active: the last one may still be finishing its health figures. */
async function closeSoonApp(t: TestApp) {
  for (let i = 0; i < 150; i++) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'device-sync' AND state = 'active'`.execute(
      t.ctx.db,
    );
    if (rows[0]!.n === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await t.close();
}

/**
 * The test's own app, whose queue runs without its scheduler (no cron slot ever comes) and without
 * workers until `startWorkers`, and its team: it stores steps; resting_heart_rate is enabled but not
 * selected; floors is selected, then disabled. Closed when the test ends.
 */
async function soonWorld() {
  const t = await createTestApp({ listen: true, now: clock.now, withQueue: true });
  onTestFinished(() => closeSoonApp(t));
  await registerJobQueues(t.ctx.boss!, [deviceSync]);
  const a = await teamWithRoles(t, 'Soon', { hiddenFields: [] });
  await storeMetrics(a, DEVICE, ['steps', 'resting_heart_rate', 'floors'], ['steps', 'floors']);
  const devices = (await a.as.Admin.get(`/api/dataStorageService/team/${a.teamId}/devices`)).json() as Array<{
    team_supported_device_id: number;
    device_name: string;
    device_type: string;
  }>;
  const d = devices.find((x) => x.device_name === DEVICE)!;
  const settings = (enabled: string[]) =>
    a.as.Sys_Admin.put(`/api/deviceSettings/${a.teamId}/${d.team_supported_device_id}`, {
      settings: enabled.map((k) => ({ metric_key: k, metric_name: k, metric_units: null, is_enabled: true })),
    });
  expect((await settings(['steps', 'resting_heart_rate'])).statusCode).toBe(200);
  const { trialId } = await trialWithParticipants(a, 'Soon', []);
  await simControl(t, 'fitbit').clock(NOW);

  const participant = async (email: string) =>
    (await a.as.Admin.post('/api/trialParticipants', { trialId, email })).json().participantId as number;
  const startWorkers = () =>
    startJobWorkers(t.ctx, t.ctx.boss!, [deviceSync], { info: () => {}, error: console.error });
  const deviceOf = async (pid: number) =>
    (
      await t.ctx.db
        .selectFrom('participant_devices')
        .select('id')
        .where('participant_id', '=', pid)
        .executeTakeFirstOrThrow()
    ).id;
  /** The device's jobs queued in pg-boss (not yet started). */
  const queued = async (deviceId: number) =>
    (
      await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pgboss.job
        WHERE name = 'device-sync' AND singleton_key = ${`device-${deviceId}`} AND state = 'created'`.execute(
        t.ctx.db,
      )
    ).rows[0]!.n;
  const readings = async (pid: number, metric: string) =>
    Number(
      (
        await t.ctx.db
          .selectFrom('device_readings')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('participant_id', '=', pid)
          .where('metric_key', '=', metric)
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Polls the readings table (no fixed sleep): the time until the metric's readings are stored. */
  const storedWithin = async (pid: number, metric: string) => {
    const start = Date.now();
    while (Date.now() - start < WITHIN_MS) {
      if ((await readings(pid, metric)) > 0) return Date.now() - start;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no ${metric} readings of participant ${pid} after ${WITHIN_MS} ms`);
  };
  /** A participant linked with the workers running, once the link's readings are stored. */
  const linkedAndSynced = async (email: string) => {
    const pid = await participant(email);
    await linkParticipant(t, a, pid, 'fitbit');
    await storedWithin(pid, 'steps');
    return pid;
  };
  return {
    t,
    a,
    deviceType: d.device_type,
    settings,
    participant,
    startWorkers,
    deviceOf,
    queued,
    readings,
    storedWithin,
    linkedAndSynced,
  };
}

describe('a new link or a newly stored metric is synced at once', () => {
  it("the callback enqueues the link's sync: one job, whatever else triggers it (the schedule, a stored metric)", async () => {
    const { t, a, participant, deviceOf, queued, readings } = await soonWorld();
    const first = await participant('first@x.example');
    await linkParticipant(t, a, first, 'fitbit');
    const deviceId = await deviceOf(first);
    expect(await queued(deviceId)).toBe(1);
    // The 15-minute schedule's slot comes meanwhile: the same job.
    expect(await deviceSyncSchedule.handler(t.ctx, {})).toEqual({ enqueued: 0 });
    expect(await queued(deviceId)).toBe(1);
    // A second trigger for the device at once (what the callback calls): the same job again.
    expect(await syncDeviceSoon(t.ctx, deviceId)).toBe(false);
    expect(await queued(deviceId)).toBe(1);
    expect(await readings(first, 'steps')).toBe(0);
  });

  it(
    'with workers running and no cron tick, the link readings are stored within a minute',
    TIMEOUT,
    async () => {
      const { t, a, participant, startWorkers, readings, storedWithin } = await soonWorld();
      // A link made before the workers start: its queued job runs once they do.
      const first = await participant('first@x.example');
      await linkParticipant(t, a, first, 'fitbit');
      await startWorkers();
      expect(await storedWithin(first, 'steps')).toBeLessThan(WITHIN_MS);

      const second = await participant('second@x.example');
      const linkedAt = Date.now();
      await linkParticipant(t, a, second, 'fitbit');
      await storedWithin(second, 'steps');
      expect(Date.now() - linkedAt).toBeLessThan(WITHIN_MS);
      // Not selected by the team: not stored.
      expect(await readings(second, 'resting_heart_rate')).toBe(0);
    },
  );

  it(
    "a metric the team newly stores (POST …/metric) is synced at once: its 30 days' backfill within a minute",
    TIMEOUT,
    async () => {
      const { t, a, deviceType, startWorkers, storedWithin, linkedAndSynced } = await soonWorld();
      await startWorkers();
      const first = await linkedAndSynced('first@x.example');
      const res = await a.as.Admin.post(
        `/api/dataStorageService/team/${a.teamId}/device/${deviceType}/metric`,
        { metric_key: 'resting_heart_rate', metric_name: 'resting_heart_rate' },
      );
      expect(res.statusCode, res.body).toBeLessThan(300);
      await storedWithin(first, 'resting_heart_rate');
      const days = await t.ctx.db
        .selectFrom('device_readings')
        .select((eb) => eb.fn.count<string>('local_date').distinct().as('n'))
        .where('participant_id', '=', first)
        .where('metric_key', '=', 'resting_heart_rate')
        .executeTakeFirstOrThrow();
      expect(Number(days.n)).toBeGreaterThan(1);
    },
  );

  it(
    'a metric the Sys_Admin newly enables (PUT) that the team stores is synced at once',
    TIMEOUT,
    async () => {
      const { settings, startWorkers, readings, storedWithin, linkedAndSynced } = await soonWorld();
      await startWorkers();
      const first = await linkedAndSynced('first@x.example');
      expect(await readings(first, 'floors')).toBe(0);
      expect((await settings(['steps', 'resting_heart_rate', 'floors'])).statusCode).toBe(200);
      await storedWithin(first, 'floors');
    },
  );
});
