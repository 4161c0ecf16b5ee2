/*
 * Background sync of Fitbit data against the simulator mounted in the test
 * app: a participant in Sydney, synced on 2027-04-20 (local) — the 30 days
 * back include 2027-04-04, when Sydney's clocks went back (+11:00 → +10:00).
 * Every stored value is compared with the simulator's own generator per
 * local date; a second sync changes nothing.
 */

import { fitbitDay, fitbitUserId, fitbitUserTimezone } from '@trialwear/simulators';
import { addDays } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScope } from '../../src/access/system.js';
import { syncHealthOfTrials } from '../../src/features/participants/repo.js';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-04-20T00:40:00Z'; // 10:40 on the 20th in Sydney
const LOCAL_TODAY = '2027-04-20';
const clock = testClock(NOW);
const DATES = Array.from({ length: 30 }, (_, i) => addDays(LOCAL_TODAY, i - 29));
/** Sydney's offset at a local midnight: daylight time (+11:00) until the night of 4 to 5 April 2027. */
const sydneyOffset = (date: string) => (date <= '2027-04-04' ? 660 : 600);

const TRACKER = [
  'steps',
  'distance',
  'floors',
  'calories',
  'minutes_very_active',
  'resting_heart_rate',
  'sleep_duration',
  'spo2',
];

interface Row {
  metric_key: string;
  measured_at: Date;
  local_date: string;
  local_time: string | null;
  utc_offset_minutes: number | null;
  value: number | null;
  provider: string | null;
  participant_device_id: number | null;
}

describe('Fitbit background sync', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;

  const rows = async (participantId: number) =>
    (await t.ctx.db
      .selectFrom('device_readings')
      .select([
        'metric_key',
        'measured_at',
        'local_date',
        'local_time',
        'utc_offset_minutes',
        'value',
        'provider',
        'participant_device_id',
      ])
      .where('participant_id', '=', participantId)
      .orderBy('metric_key')
      .orderBy('measured_at')
      .execute()) as Row[];
  const byMetric = (all: Row[], key: string) =>
    new Map(all.filter((r) => r.metric_key === key).map((r) => [r.local_date, r]));

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Sync', { hiddenFields: [], allowedBrands: ['Fitbit', 'Omron', 'Dexcom'] });
    await storeMetrics(a, 'Fitbit Sense', TRACKER);
    await storeMetrics(a, 'Fitbit Aria Scale', ['weight', 'bmi', 'body_fat'], ['weight', 'bmi']);
    ({ trialId } = await trialWithParticipants(a, 'Sync', []));
    await simControl(t, 'fitbit').clock(NOW);
  });
  afterAll(() => t?.close());

  let candidates = 0;
  /** A new participant of the trial in Sydney, linked (the candidates in other zones stay in the trial, never linked). */
  const sydneyParticipant = async (trial = trialId) => {
    const clientId = t.ctx.providers.fitbit.settings.clientId;
    for (let i = 0; i < 80; i++) {
      candidates += 1;
      const id = (
        await a.as.Admin.post('/api/trialParticipants', {
          trialId: trial,
          email: `sync${candidates}@x.example`,
        })
      ).json().participantId as number;
      if (fitbitUserTimezone(fitbitUserId(`${clientId}:${id}`)).tz !== 'Australia/Sydney') continue;
      const user = await linkParticipant(t, a, id, 'fitbit');
      const deviceId = (
        await t.ctx.db
          .selectFrom('participant_devices')
          .select('id')
          .where('participant_id', '=', id)
          .executeTakeFirstOrThrow()
      ).id;
      return { pid: id, user, deviceId };
    }
    throw new Error('no participant in Sydney');
  };
  /** The test's own Sydney participant after its first sync. */
  const synced = async (trial = trialId) => {
    const p = await sydneyParticipant(trial);
    const r = await syncDevice(t.ctx, p.deviceId);
    expect(r.status).toBe('synced');
    return p;
  };

  it("stores exactly the simulator's values for the 30 local days, at local midnight with the offset then in force", async () => {
    const { pid, user, deviceId } = await sydneyParticipant();
    const r = await syncDevice(t.ctx, deviceId);
    expect(r.status).toBe('synced');
    expect(r.metrics.sort()).toEqual([...TRACKER, 'weight', 'bmi'].sort());
    const all = await rows(pid);
    expect(r.rowsUpserted).toBe(all.length);

    const daily: Array<[string, (d: ReturnType<typeof fitbitDay>) => number | null]> = [
      ['steps', (d) => d.steps],
      ['distance', (d) => d.distanceKm],
      ['floors', (d) => d.floors],
      ['calories', (d) => d.calories],
      ['minutes_very_active', (d) => d.minutesVeryActive],
      ['resting_heart_rate', (d) => d.restingHeartRate],
      ['sleep_duration', (d) => d.sleep?.minutesAsleep ?? null],
      ['spo2', (d) => d.spo2?.avg ?? null],
    ];
    for (const [key, expected] of daily) {
      const stored = byMetric(all, key);
      const want = DATES.filter((d) => expected(fitbitDay(user, d)) !== null);
      expect([...stored.keys()], key).toEqual(want);
      for (const date of want) {
        const row = stored.get(date)!;
        expect(row.value, `${key} ${date}`).toBe(expected(fitbitDay(user, date)));
        expect(row.local_time).toBe('00:00:00');
        expect(row.utc_offset_minutes, `${key} ${date}`).toBe(sydneyOffset(date));
        expect(row.measured_at.getTime()).toBe(Date.parse(`${date}T00:00:00Z`) - sydneyOffset(date) * 60_000);
        expect(row).toMatchObject({ provider: 'fitbit', participant_device_id: deviceId });
      }
    }
    // Weighings at their local time (07:38:14); BMI beside the weight; body fat enabled but not selected: not stored.
    const weighed = DATES.filter((d) => fitbitDay(user, d).weightKg !== null);
    const weights = byMetric(all, 'weight');
    expect([...weights.keys()]).toEqual(weighed);
    for (const date of weighed) {
      const kg = fitbitDay(user, date).weightKg!;
      expect(weights.get(date)!.value).toBe(kg);
      expect(weights.get(date)!.local_time).toBe('07:38:14');
      // At 07:38 on the 4th the clocks have gone back already (03:00): +10:00 from that morning.
      const offset = date < '2027-04-04' ? 660 : 600;
      expect(weights.get(date)!.measured_at.getTime()).toBe(
        Date.parse(`${date}T07:38:14Z`) - offset * 60_000,
      );
      expect(byMetric(all, 'bmi').get(date)!.value).toBe(Math.round((kg / 1.72 ** 2) * 100) / 100);
    }
    expect(new Set(all.map((x) => x.metric_key))).toEqual(new Set([...TRACKER, 'weight', 'bmi']));
  });

  it('the DST change keeps local dates: the 4th at +11:00, the 5th at +10:00, 25 hours apart', async () => {
    const { pid } = await synced();
    const steps = byMetric(await rows(pid), 'steps');
    const fourth = steps.get('2027-04-04')!;
    const fifth = steps.get('2027-04-05')!;
    expect(fourth.utc_offset_minutes).toBe(660);
    expect(fifth.utc_offset_minutes).toBe(600);
    expect(fourth.measured_at.toISOString()).toBe('2027-04-03T13:00:00.000Z');
    expect(fifth.measured_at.getTime() - fourth.measured_at.getTime()).toBe(25 * 3_600_000);
  });

  it('a second sync stores nothing twice and changes nothing', async () => {
    const { pid, deviceId } = await synced();
    const before = await rows(pid);
    const again = await syncDevice(t.ctx, deviceId);
    expect(again.status).toBe('synced');
    expect(again.rowsUpserted).toBe(0);
    // One call per resource read (5 activity series, heart, sleep, SpO2, weight log); the profile's zone is cached.
    expect(again.calls).toBe(9);
    const after = await rows(pid);
    expect(after).toEqual(before);
  });

  it('health: last success, no error, rows stored, days of the last 7 with data', async () => {
    const { pid, user, deviceId } = await synced();
    const s = await t.ctx.db
      .selectFrom('device_sync_state')
      .selectAll()
      .where('participant_device_id', '=', deviceId)
      .executeTakeFirstOrThrow();
    const all = await rows(pid);
    expect(s.rows_stored).toBe(all.length);
    expect(s.last_error).toBeNull();
    expect(s.last_success_at?.toISOString()).toBe(NOW.replace('Z', '.000Z'));
    const lastWeek = DATES.slice(-7);
    const withData = lastWeek.filter(
      (d) => fitbitDay(user, d).steps > 0 || fitbitDay(user, d).weightKg !== null,
    );
    expect(s.days_with_data_7d).toBe(withData.length);
  });

  it("the trial list shows each participant's sync health; no data for 3 days is flagged", async () => {
    // A trial of the test's own: a participant never linked, and the participant synced.
    const { trialId, ids } = await trialWithParticipants(a, 'Sync list', ['never-linked@x.example'], '2');
    const { pid } = await synced(trialId);
    const list = async () =>
      (await a.as.Admin.get(`/api/trialParticipants/${trialId}`)).json().participants as Array<{
        id: number;
        sync: Record<string, unknown>;
      }>;
    const all = await rows(pid);
    const mine = (await list()).find((p) => p.id === pid)!;
    expect(mine.sync).toEqual({
      status: 'ok',
      lastSuccessAt: '2027-04-20T00:40:00.000Z',
      lastError: null,
      rowsStored: all.length,
      daysWithData7d: expect.any(Number),
      lastDataDate: LOCAL_TODAY,
      resumesAt: null,
    });
    const others = (await list()).filter((p) => p.id !== pid);
    expect(others.map((o) => o.id)).toContain(ids[0]);
    for (const o of others) expect(o.sync.status).toBe('none');
    // Three days on with nothing new: flagged (the list's query for another "today"; sessions would expire).
    const daysOn = (n: number) => new Date(Date.parse(NOW) + n * 86_400_000);
    const later = await syncHealthOfTrials(t.ctx.db, systemScope.allTrials('fixture', a.teamId), daysOn(3));
    expect(later.get(pid)).toMatchObject({ status: 'stale' });
    const sooner = await syncHealthOfTrials(t.ctx.db, systemScope.allTrials('fixture', a.teamId), daysOn(2));
    expect(sooner.get(pid)).toMatchObject({ status: 'ok' });
  });
});
