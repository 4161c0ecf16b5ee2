/*
 * The demo seed shows Study health on first start (issue #23 item 9): the
 * Study health demo trial's wearers have stored days, battery and last sync equal to
 * the Fitbit simulator's truth, exactly two of them need attention (one
 * stopped wearing the tracker → lowWear, one nearly empty battery →
 * lowBattery), and those alerts were raised by the rules' evaluation (audited
 * by the system), as the Study health API shows them to the demo accounts.
 */
import {
  fitbitDevices,
  fitbitIntradayDataset,
  fitbitTrackerLastSync,
  fitbitUserTimezone,
  fitbitWearMinutes,
} from '@trialwear/simulators';
import { addDays, localDate } from '@trialwear/zone';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScope } from '../../src/access/system.js';
import { storedReadings } from '../../src/features/readings/repo.js';
import { checkDeviceHealth } from '../../src/jobs/device-health/check-device.js';
import { deviceSync } from '../../src/jobs/device-sync/job.js';
import { metricsFor } from '../../src/jobs/device-sync/repo.js';
import { registerJobQueues } from '../../src/jobs/runner.js';
import { evaluateTrialAlerts } from '../../src/jobs/study-health/evaluate-alerts.js';
import {
  DEMO_HEALTH_DAYS,
  DEMO_HEALTH_TRIAL,
  DEMO_LOW_BATTERY,
  DEMO_PASSWORD,
  DEMO_STOPPED_WEARING,
  DEMO_STORED_METRICS,
  seedDemo,
  startDemoSync,
} from '../../src/seed/demo.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

// 15:00 UTC: a complete day behind every simulated zone (New York to Tokyo).
const NOW = '2026-11-26T15:00:00Z';
const clock = testClock(NOW);

interface HealthTable {
  trialId: number;
  participants: Array<{
    participantId: number;
    participantCode: string;
    lastSyncAt: string | null;
    batteryLevel: number | null;
    linkStatus: string | null;
    days: Array<{ date: string; wearMinutes: number | null }>;
    openAlerts: string[];
  }>;
}

/** A test app with the demo seeded at NOW: its team and the Study health demo trial. */
async function seededDemo(opts: { withQueue?: boolean } = {}) {
  const t = await createTestApp({ now: clock.now, listen: true, ...opts });
  const { teamId } = await seedDemo(t.ctx);
  const trialId = (
    await t.ctx.db
      .selectFrom('trials')
      .select('id')
      .where('team_id', '=', teamId)
      .where('trial_number', '=', DEMO_HEALTH_TRIAL)
      .executeTakeFirstOrThrow()
  ).id;
  return { t, teamId, trialId };
}

describe('demo seed: Study health', () => {
  let t: TestApp;
  let teamId: number;
  let trialId: number;
  beforeAll(async () => {
    ({ t, teamId, trialId } = await seededDemo());
  });
  afterAll(() => t?.close());

  const signedIn = async (username: string) => {
    const c = t.client();
    await c.login(username, DEMO_PASSWORD);
    return c;
  };

  it('shows exactly two participants needing attention, with the rules that hold', async () => {
    const admin = await signedIn('admin');
    const res = await admin.get(`/api/studyHealth/trials/${trialId}`);
    expect(res.statusCode, res.body).toBe(200);
    const table = res.json() as HealthTable;
    const withAlerts = table.participants
      .filter((p) => p.openAlerts.length > 0)
      .map((p) => ({ code: p.participantCode, alerts: p.openAlerts }))
      .sort((a, b) => a.code.localeCompare(b.code));
    expect(withAlerts).toEqual([
      { code: DEMO_STOPPED_WEARING, alerts: ['lowWear'] },
      { code: DEMO_LOW_BATTERY, alerts: ['lowBattery'] },
    ]);
    // The alerts list says the same, and each opening was the evaluation's (a system audit row).
    const alerts = await admin.get(`/api/studyHealth/trials/${trialId}/alerts?status=open`);
    expect(alerts.statusCode, alerts.body).toBe(200);
    const list = alerts.json() as Array<{ id: number; ruleKey: string }>;
    expect(list.map((a) => a.ruleKey).sort()).toEqual(['lowBattery', 'lowWear']);
    const audits = await t.ctx.db
      .selectFrom('audit_log')
      .select(['entity_id', 'user_id'])
      .where('action', '=', 'study_health.alert.opened')
      .where('team_id', '=', teamId)
      .execute();
    expect(audits.map((a) => Number(a.entity_id)).sort()).toEqual(list.map((a) => a.id).sort());
    expect(audits.every((a) => a.user_id === null)).toBe(true);

    // The trial's coordinator (a User on the trial) sees the same table.
    const coordinator = await signedIn('coordinator');
    const theirs = await coordinator.get(`/api/studyHealth/trials/${trialId}`);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect((theirs.json() as HealthTable).participants).toEqual(table.participants);
  });

  it("stores the simulator's truth: wear minutes per local day, battery, last sync", async () => {
    const links = await t.ctx.db
      .selectFrom('participant_devices as d')
      .innerJoin('participants as p', 'p.id', 'd.participant_id')
      .innerJoin('device_sync_state as s', 's.participant_device_id', 'd.id')
      .select(['p.participant_code', 'd.provider_user_id', 'd.authorization_status', 's.time_zone'])
      .where('p.trial_id', '=', trialId)
      .execute();
    expect(links.length).toBe(6);
    const admin = await signedIn('admin');
    // Wide enough for every zone's last complete days.
    const from = addDays('2026-11-26', -DEMO_HEALTH_DAYS - 1);
    const res = await admin.get(`/api/studyHealth/trials/${trialId}?from=${from}&to=2026-11-27`);
    expect(res.statusCode, res.body).toBe(200);
    const table = res.json() as HealthTable;
    const now = new Date(NOW);
    for (const link of links) {
      const userId = link.provider_user_id!;
      const p = table.participants.find((x) => x.participantCode === link.participant_code)!;
      expect(p.linkStatus).toBe('active');
      expect(p.batteryLevel).toBe(fitbitDevices(userId, now)[0]!.batteryLevel);
      expect(new Date(p.lastSyncAt!).toISOString()).toBe(fitbitTrackerLastSync(userId, now).toISOString());
      const stored = p.days.filter((d) => d.wearMinutes !== null);
      expect(stored).toHaveLength(DEMO_HEALTH_DAYS);
      for (const d of stored)
        expect(d.wearMinutes, `${link.participant_code} ${d.date}`).toBe(fitbitWearMinutes(userId, d.date));
    }
    const stopped = table.participants.find((p) => p.participantCode === DEMO_STOPPED_WEARING)!;
    expect(
      stopped.days
        .filter((d) => d.wearMinutes !== null)
        .slice(-3)
        .map((d) => d.wearMinutes),
    ).toEqual([0, 0, 0]);
    const low = table.participants.find((p) => p.participantCode === DEMO_LOW_BATTERY)!;
    expect(low.batteryLevel).toBeLessThan(15);
    // The trial's participants without a tracker are listed too, with no days.
    expect(table.participants).toHaveLength(8);
    expect(table.participants.filter((p) => p.days.length === 0).map((p) => p.linkStatus)).toEqual([
      'none',
      'none',
    ]);
  });
});

// Its own seeded app: the real check stores what the simulator (on real time, not the test clock)
// reports now — its last sync — so the seeded values the tests above compare would not be the seed's.
describe('demo seed: Study health, checked for real', () => {
  let t: TestApp;
  let teamId: number;
  let trialId: number;
  beforeAll(async () => {
    ({ t, teamId, trialId } = await seededDemo());
  });
  afterAll(() => t?.close());

  it("links with the simulator's own tokens: the real device check re-reads the same days, the alerts stay", async () => {
    const devices = await t.ctx.db
      .selectFrom('participant_devices as d')
      .innerJoin('participants as p', 'p.id', 'd.participant_id')
      .innerJoin('device_sync_state as s', 's.participant_device_id', 'd.id')
      .select(['d.id', 'd.provider_user_id', 's.time_zone'])
      .where('p.trial_id', '=', trialId)
      .execute();
    for (const d of devices) {
      const r = await checkDeviceHealth(t.ctx, d.id);
      expect(r.status, r.error).toBe('checked');
      // The complete days it re-read (over HTTP, through the provider module) are the stored ones.
      const today = localDate(d.time_zone!, new Date(NOW));
      const complete = r.days.filter((day) => day.date < today);
      expect(complete).toHaveLength(3);
      for (const day of complete)
        expect(day.wearMinutes, `${d.provider_user_id} ${day.date}`).toBe(
          fitbitWearMinutes(d.provider_user_id!, day.date),
        );
    }
    const states = await t.ctx.db
      .selectFrom('participant_devices')
      .select('authorization_status')
      .where(
        'id',
        'in',
        devices.map((d) => d.id),
      )
      .execute();
    expect(states.every((s) => s.authorization_status === 'authorized')).toBe(true);
    expect(await evaluateTrialAlerts(t.ctx, systemScope.trial('job', teamId, trialId))).toEqual({
      opened: 0,
      closed: 0,
    });
  });
});

// Minute-level data on first start (issue #24 item 6): the team stores intraday heart rate and
// steps; the first start enqueues the wearers' syncs, which store the simulator's minutes.
describe('demo seed: minute-level data', () => {
  let t: TestApp;
  let trialId: number;
  beforeAll(async () => {
    ({ t, trialId } = await seededDemo({ withQueue: true }));
    await registerJobQueues(t.ctx.boss!, [deviceSync]);
  });
  afterAll(() => t?.close());

  it("enqueues each wearer's first sync, which stores the simulator's minutes of both metrics", async () => {
    const devices = await t.ctx.db
      .selectFrom('participant_devices as d')
      .innerJoin('participants as p', 'p.id', 'd.participant_id')
      .select(['d.id', 'd.participant_id', 'd.provider_user_id', 'd.team_id'])
      .where('p.trial_id', '=', trialId)
      .orderBy('d.id')
      .execute();
    expect(await metricsFor(t.ctx.db, devices[0]!.team_id, 'fitbit')).toEqual(
      expect.arrayContaining([...DEMO_STORED_METRICS]),
    );
    // Every demo link's first sync: the wearers' Fitbit and the Omron and Dexcom links of trial 004.
    const linked = await t.ctx.db
      .selectFrom('participant_devices')
      .select('id')
      .where('team_id', '=', devices[0]!.team_id)
      .execute();
    expect(linked.length).toBeGreaterThan(devices.length);
    expect(await startDemoSync(t.ctx)).toBe(linked.length);
    const jobs = await sql<{ key: string }>`
      SELECT singleton_key AS key FROM pgboss.job WHERE name = 'device-sync' AND state = 'created'`.execute(
      t.ctx.db,
    );
    expect(jobs.rows.map((j) => j.key).sort()).toEqual(linked.map((d) => `device-${d.id}`).sort());

    // What the first job stores (the worker's handler, run here): the backfill's oldest 10 days.
    const d = devices[1]!;
    const r = (await deviceSync.handler(t.ctx, { deviceId: d.id })) as { status: string; more?: boolean };
    expect(r).toMatchObject({ status: 'synced', more: true });
    for (const [metric, resource] of [
      ['heart_rate_intraday', 'heart'],
      ['steps_intraday', 'steps'],
    ] as const) {
      const stored = await storedReadings(t.ctx.db, d.participant_id, metric);
      // The oldest 10 local days of the 30-day backfill (a day without a sample stores nothing).
      const today = localDate(fitbitUserTimezone(d.provider_user_id!).tz, new Date(NOW));
      const dates = Array.from({ length: 10 }, (_, i) => addDays(today, i - 29));
      expect(new Set(stored.map((x) => x.local_date)).size, metric).toBeGreaterThan(5);
      for (const date of dates)
        expect(
          stored.filter((x) => x.local_date === date).map((x) => [x.local_time, x.value]),
          `${metric} ${date}`,
        ).toEqual(
          fitbitIntradayDataset(d.provider_user_id!, date, resource, '1min').dataset.map((w) => [
            w.time,
            w.value,
          ]),
        );
    }
  });
});
