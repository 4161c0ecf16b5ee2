/*
 * Issue 27 §4: a device sync in flight when the database restarts resumes
 * within 2 minutes of the restart, in the same worker process (which stays
 * up), and stores every reading exactly once. Its own PostgreSQL cluster
 * (restartable-cluster.ts): the shared test cluster must never be stopped.
 * The device's sync is held at its first provider call (its sync-state row
 * locked, as export-turns-worker does) so that it is surely active when the
 * database goes; the restart itself releases the hold. Real time throughout.
 */
import { fitbitDay } from '@trialwear/simulators';
import { sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceSync } from '../../src/jobs/device-sync/job.js';
import { enqueue } from '../../src/jobs/job-definition.js';
import { startQueue } from '../../src/queue/boss.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../support/linked-participant.js';
import { startWorker } from '../support/processes.js';
import { type RestartableCluster, startRestartableCluster } from '../support/restartable-cluster.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

const METRICS = ['steps', 'distance', 'floors', 'calories', 'resting_heart_rate'];
/** The issue's promise. */
const RESUME_WITHIN_MS = 120_000;

describe('a device sync in flight when the database restarts', () => {
  let pgc: RestartableCluster;
  let t: TestApp;
  let a: TeamFixture;
  let ids: number[];
  const users = new Map<number, string>();
  let env: Record<string, string>;
  let holder: pg.Client | null = null;

  beforeAll(async () => {
    pgc = await startRestartableCluster();
    t = await createTestApp({ listen: true, cluster: pgc.cluster });
    a = await teamWithRoles(t, 'Restart sync', { hiddenFields: [] });
    await storeMetrics(a, 'Fitbit Sense', METRICS);
    ({ ids } = await trialWithParticipants(a, 'Restart sync', ['held@x.example', 'free@x.example']));
    for (const id of ids) users.set(id, await linkParticipant(t, a, id, 'fitbit'));
    env = {
      ENCRYPTION_KEY: t.ctx.config.ENCRYPTION_KEY!,
      SESSION_SECRET: t.ctx.config.SESSION_SECRET!,
      PUBLIC_URL: t.ctx.config.publicUrl,
      SEED_DEMO: 'false',
    };
  }, 180_000);
  afterAll(async () => {
    await holder?.end().catch(() => {});
    await pgc?.start();
    await t?.close();
    await pgc?.destroy();
  });

  const deviceOf = async (pid: number) =>
    (
      await t.ctx.db
        .selectFrom('participant_devices')
        .select('id')
        .where('participant_id', '=', pid)
        .executeTakeFirstOrThrow()
    ).id;
  const lastSuccess = async (deviceId: number) =>
    (
      await t.ctx.db
        .selectFrom('device_sync_state')
        .select('last_success_at')
        .where('participant_device_id', '=', deviceId)
        .executeTakeFirst()
    )?.last_success_at ?? null;
  const jobStates = async (deviceId: number) =>
    (
      await sql<{ state: string }>`
        SELECT state FROM pgboss.job WHERE name = 'device-sync' AND singleton_key = ${`device-${deviceId}`}`.execute(
        t.ctx.db,
      )
    ).rows.map((r) => r.state);
  const lockWaits = async () =>
    (await sql`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'`.execute(t.ctx.db)).rows.length;
  /** A query that may meet the database while it restarts: no answer counts as "not yet". */
  const soft = <T>(q: () => Promise<T>) => q().catch(() => undefined);

  it('resumes within 2 minutes of the restart in the same worker; every reading stored once', async () => {
    const [held, free] = [await deviceOf(ids[0]!), await deviceOf(ids[1]!)];
    // Hold the first device's sync at its first provider call: the call budget's update waits for this lock.
    holder = await t.connectAs('owner');
    // The restart terminates this connection: an error event that must not end the test's process.
    holder.on('error', () => {});
    await holder.query(
      'INSERT INTO device_sync_state (participant_device_id) VALUES ($1) ON CONFLICT DO NOTHING',
      [held],
    );
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM device_sync_state WHERE participant_device_id = $1 FOR UPDATE', [held]);

    const worker = startWorker(t, env);
    try {
      await until(() => worker.output().includes('is running jobs'), 'the worker to start', 120_000);
      const boss = await startQueue(t.ctx.config.DATABASE_URL!, { background: false });
      try {
        for (const d of [held, free]) expect(await enqueue(boss, deviceSync, { deviceId: d })).toBeTruthy();
      } finally {
        await boss.stop({ graceful: false, wait: true });
      }
      await until(
        async () => (await lastSuccess(free)) !== null,
        `the free device's sync:\n${worker.output()}`,
      );
      // The held device's job is active and its query waits for the lock: the sync is in flight.
      await until(
        async () => (await jobStates(held)).includes('active') && (await lockWaits()) > 0,
        'the held sync in flight',
      );
      expect(await lastSuccess(held)).toBeNull();

      await pgc.stop();
      holder = null;
      // Down long enough for every connection of the worker to notice (its pollers, its pools).
      await new Promise((r) => setTimeout(r, 5_000));
      await pgc.start();
      const restartedAt = Date.now();

      await until(
        async () => !!(await soft(() => lastSuccess(held))),
        `the held device's sync after the restart:\n${worker.output()}`,
        RESUME_WITHIN_MS,
      );
      const resumedMs = Date.now() - restartedAt;
      console.log(`[sync-after-restart] the sync resumed and completed ${resumedMs} ms after the restart`);
      expect(resumedMs).toBeLessThan(RESUME_WITHIN_MS);
      await until(
        async () => !!(await soft(() => jobStates(held)))?.every((s) => s === 'completed'),
        `the held device's job completed: ${await jobStates(held)}`,
      );
      expect(worker.child.exitCode, worker.output()).toBeNull();
      expect(worker.child.signalCode).toBeNull();
    } finally {
      if (worker.child.exitCode === null) {
        const exited = new Promise((r) => worker.child.once('exit', r));
        worker.child.kill('SIGTERM');
        await exited;
      }
    }

    // Exactly once: one reading per participant, metric and local day, with the simulator's value.
    const rows = await t.ctx.db
      .selectFrom('device_readings')
      .select(['participant_id', 'metric_key', 'local_date', 'value'])
      .execute();
    const seen = new Set<string>();
    for (const r of rows) {
      const key = `${r.participant_id}:${r.metric_key}:${r.local_date}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
      const day = fitbitDay(users.get(r.participant_id)!, r.local_date);
      const want = {
        steps: day.steps,
        distance: day.distanceKm,
        floors: day.floors,
        calories: day.calories,
        resting_heart_rate: day.restingHeartRate,
      }[r.metric_key as 'steps'];
      expect(r.value, key).toBe(want);
    }
    for (const id of ids)
      for (const m of METRICS.filter((k) => k !== 'resting_heart_rate'))
        expect(rows.filter((r) => r.participant_id === id && r.metric_key === m).length, `${id} ${m}`).toBe(
          30,
        );
  }, 420_000);
});
