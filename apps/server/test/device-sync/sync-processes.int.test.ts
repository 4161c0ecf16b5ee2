/*
 * The sync in real processes: `npm run worker` takes device-sync jobs from
 * pg-boss and is killed (SIGKILL) in the middle of them; `sync-now` (the
 * operator's CLI, one JSON line) then completes the work from the stored
 * cursors. Nothing is lost and nothing is stored twice: every participant
 * has each metric exactly once per local day, with the simulator's value.
 * Real time throughout (child processes cannot share a test clock).
 */
import { fitbitDay, fitbitUserTimezone } from '@trialwear/simulators';
import { daysFrom, localDate } from '@trialwear/zone';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceSync } from '../../src/jobs/device-sync/job.js';
import { enqueue } from '../../src/jobs/job-definition.js';
import { registerJobQueues } from '../../src/jobs/runner.js';
import { startQueue } from '../../src/queue/boss.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../support/linked-participant.js';
import { killAndSettle, runCliAsync, startWorker } from '../support/processes.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

const METRICS = ['steps', 'distance', 'floors', 'calories', 'resting_heart_rate'];
const PARTICIPANTS = 10;

describe('sync in a worker killed mid-sync, completed by sync-now', () => {
  let t: TestApp;
  let a: TeamFixture;
  let ids: number[];
  const users = new Map<number, string>();
  let env: Record<string, string>;

  const readingCount = async () =>
    Number(
      (
        await t.ctx.db
          .selectFrom('device_readings')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    a = await teamWithRoles(t, 'Crash sync', { hiddenFields: [] });
    await storeMetrics(a, 'Fitbit Sense', METRICS);
    ({ ids } = await trialWithParticipants(
      a,
      'Crash sync',
      Array.from({ length: PARTICIPANTS }, (_, i) => `crash${i}@x.example`),
    ));
    for (const id of ids) users.set(id, await linkParticipant(t, a, id, 'fitbit'));
    env = {
      ENCRYPTION_KEY: t.ctx.config.ENCRYPTION_KEY!,
      SESSION_SECRET: t.ctx.config.SESSION_SECRET!,
      PUBLIC_URL: t.ctx.config.publicUrl,
      SEED_DEMO: 'false',
    };
  }, 120_000);
  afterAll(() => t?.close());

  it('a SIGKILL mid-sync loses nothing and duplicates nothing; sync-now prints one JSON line', async () => {
    const startedAt = Date.now();
    // The jobs are queued before any worker runs: a job a worker already took is no longer
    // waiting, and a second one for its device would then be accepted.
    const devices = await t.ctx.db.selectFrom('participant_devices').select('id').execute();
    const waiting = async () =>
      (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job
          WHERE name = ${deviceSync.name} AND state = 'created'`.execute(t.ctx.db)
      ).rows[0]!.n;
    const boss = await startQueue(t.ctx.config.DATABASE_URL!, { background: false });
    try {
      // The queue as a worker creates it when it starts.
      await registerJobQueues(boss, [deviceSync]);
      for (const d of devices) expect(await enqueue(boss, deviceSync, { deviceId: d.id })).toBeTruthy();
      expect(await waiting()).toBe(devices.length);
      // A second job for a device already waiting is refused (one waiting per device).
      expect(await enqueue(boss, deviceSync, { deviceId: devices[0]!.id })).toBeNull();
      expect(await waiting()).toBe(devices.length);
    } finally {
      await boss.stop({ graceful: false });
    }
    const worker = startWorker(t, { ...env, PGAPPNAME: 'killed-sync-worker' });
    try {
      await until(() => worker.output().includes('is running jobs'), 'the worker to start', 60_000);
      await until(
        async () => (await readingCount()) > 0,
        () => `the first readings:\n${worker.output()}`,
        60_000,
      );
    } finally {
      // Counted once the dead worker's last COMMIT (already sent when killed) has landed or not.
      await killAndSettle(worker.child, t.ctx.db, 'killed-sync-worker');
    }
    const atKill = await readingCount();
    expect(atKill).toBeGreaterThan(0);

    const res = await runCliAsync(t, env, 'sync-now');
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!);
    expect(out).toMatchObject({ ok: true, command: 'sync-now', devices: PARTICIPANTS, errors: [] });
    expect(out.metrics).toBe(PARTICIPANTS * METRICS.length);
    // sync-now stored exactly what the killed worker had not: the rest, nothing again.
    expect(out.rowsUpserted).toBe((await readingCount()) - atKill);
    expect(out.rowsUpserted).toBeGreaterThan(0); // the worker was killed with work left
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
    // Real time: a participant's local midnight may pass between the worker's sync and sync-now,
    // sliding the 30-day window by a day for the metrics synced after it (one day more, kept).
    const endedAt = Date.now();
    for (const id of ids) {
      const { tz } = fitbitUserTimezone(users.get(id)!);
      const crossed = daysFrom(localDate(tz, startedAt), localDate(tz, endedAt));
      for (const m of METRICS) {
        const days = rows.filter((r) => r.participant_id === id && r.metric_key === m).length;
        if (m === 'resting_heart_rate') expect(days).toBeLessThanOrEqual(30 + crossed);
        else {
          expect(days, `${id} ${m}`).toBeGreaterThanOrEqual(30);
          expect(days, `${id} ${m}`).toBeLessThanOrEqual(30 + crossed);
        }
      }
    }

    // sync-now for one participant: one device, nothing new.
    const one = await runCliAsync(t, env, 'sync-now', '--participant', String(ids[0]));
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ ok: true, devices: 1, rowsUpserted: 0, errors: [] });
  }, 180_000);
});
