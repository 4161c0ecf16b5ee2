/*
 * Omron and Dexcom readings carry their own instants and offsets: the sync
 * stores each at its UTC instant with the local date, time and offset the
 * provider gave, exactly the simulator's values over the 30-day backfill,
 * and a second sync (incremental from the newest reading) adds nothing.
 */
import { dexcomEgvs, omronDay } from '@trialwear/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/app-context.js';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-03-20T12:00:00Z'; // the window crosses the US clock change of 14 March 2027
const clock = testClock(NOW);
const DAY = 86_400_000;
const offsetMinutes = (text: string) =>
  (text.startsWith('-') ? -1 : 1) * (Number(text.slice(1, 3)) * 60 + Number(text.slice(4, 6)));

describe('Omron and Dexcom background sync', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;
  const deviceOf = async (pid: number, provider: 'omron' | 'dexcom') =>
    (
      await t.ctx.db
        .selectFrom('participant_devices')
        .select('id')
        .where('participant_id', '=', pid)
        .where('provider', '=', provider)
        .executeTakeFirstOrThrow()
    ).id;
  const rows = (pid: number, metric: string) =>
    t.ctx.db
      .selectFrom('device_readings')
      .select([
        'measured_at',
        'local_date',
        'local_time',
        'utc_offset_minutes',
        'value',
        'value_json',
        'provider',
      ])
      .where('participant_id', '=', pid)
      .where('metric_key', '=', metric)
      .orderBy('measured_at')
      .execute();

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Sync OD', { hiddenFields: [], allowedBrands: ['Fitbit', 'Omron', 'Dexcom'] });
    await storeMetrics(a, 'Omron Blood Pressure Monitor', ['systolic', 'diastolic', 'pulse']);
    await storeMetrics(a, 'Omron Scale', ['weight']);
    await storeMetrics(a, 'Dexcom G7 CGM', ['egv', 'egv_trend']);
    ({ trialId } = await trialWithParticipants(a, 'Sync OD', []));
  });
  afterAll(() => t?.close());

  let participants = 0;
  /** The test's start (NOW, here and at the simulators) and its own participant, linked to the provider. */
  const linked = async (provider: 'omron' | 'dexcom') => {
    clock.set(NOW);
    await simControl(t, provider).clock(NOW);
    participants += 1;
    const pid = (
      await a.as.Admin.post('/api/trialParticipants', { trialId, email: `od${participants}@x.example` })
    ).json().participantId as number;
    const user = await linkParticipant(t, a, pid, provider);
    return { pid, user, deviceId: await deviceOf(pid, provider) };
  };

  it("Omron: every reading of the last 30 days at its instant, local time and offset, the simulator's values", async () => {
    const { pid, user: omronUser, deviceId } = await linked('omron');
    const r = await syncDevice(t.ctx, deviceId);
    expect(r.status).toBe('synced');
    expect(r.metrics).toEqual(['diastolic', 'pulse', 'systolic', 'weight']);
    const since = Date.parse(NOW) - 30 * DAY;
    const days = Array.from({ length: 33 }, (_, i) =>
      new Date(since + (i - 1) * DAY).toISOString().slice(0, 10),
    );
    const inWindow = (x: { dateTime: string }) =>
      Date.parse(x.dateTime) >= since && Date.parse(x.dateTime) <= Date.parse(NOW);
    const byTime = (x: { dateTime: string }, y: { dateTime: string }) =>
      Date.parse(x.dateTime) - Date.parse(y.dateTime);
    const bp = days
      .flatMap((d) => omronDay(omronUser, d).bloodPressure)
      .filter(inWindow)
      .sort(byTime);
    const kg = days
      .flatMap((d) => omronDay(omronUser, d).weight)
      .filter(inWindow)
      .sort(byTime);
    expect(bp.length).toBeGreaterThan(20);
    const expectRows = (
      stored: Awaited<ReturnType<typeof rows>>,
      want: Array<{ dateTime: string; dateTimeLocal: string; dateTimeUtcOffset: string }>,
      value: (x: never) => number,
    ) => {
      expect(stored.map((s) => s.measured_at.toISOString())).toEqual(
        want.map((w) => new Date(w.dateTime).toISOString()),
      );
      stored.forEach((s, i) => {
        const w = want[i]!;
        expect(s.value).toBe(value(w as never));
        expect(`${s.local_date}T${s.local_time}`).toBe(w.dateTimeLocal);
        expect(s.utc_offset_minutes).toBe(offsetMinutes(w.dateTimeUtcOffset));
        expect(s.provider).toBe('omron');
      });
    };
    expectRows(await rows(pid, 'systolic'), bp, (x: { systolic: number }) => x.systolic);
    expectRows(await rows(pid, 'diastolic'), bp, (x: { diastolic: number }) => x.diastolic);
    expectRows(await rows(pid, 'pulse'), bp, (x: { pulse: number }) => x.pulse);
    expectRows(await rows(pid, 'weight'), kg, (x: { weight: number }) => x.weight);
    const again = await syncDevice(t.ctx, deviceId);
    expect(again.rowsUpserted).toBe(0);
    expect((await rows(pid, 'systolic')).length).toBe(bp.length);
  });

  it("Dexcom: every EGV and trend of the last 30 days at systemTime, local from displayTime, the simulator's values", async () => {
    const { pid, user: dexcomUser, deviceId } = await linked('dexcom');
    const r = await syncDevice(t.ctx, deviceId);
    expect(r.status).toBe('synced');
    const want = dexcomEgvs(dexcomUser, Date.parse(NOW) - 30 * DAY, Date.parse(NOW));
    const egv = await rows(pid, 'egv');
    expect(egv.length).toBe(want.length);
    egv.forEach((s, i) => {
      const w = want[i]!;
      expect(s.measured_at.toISOString().replace('.000Z', 'Z')).toBe(w.systemTime);
      expect(s.value).toBe(w.value);
      expect(`${s.local_date}T${s.local_time}`).toBe(w.displayTime.slice(0, 19));
      expect(s.utc_offset_minutes).toBe(offsetMinutes(w.displayTime.slice(19)));
    });
    const trend = await rows(pid, 'egv_trend');
    expect(trend.map((s) => [s.value, (s.value_json as { trend: string }).trend])).toEqual(
      want.map((w) => [w.trendRate, w.trend]),
    );
    clock.advance(60 * 60_000);
    await simControl(t, 'dexcom').clock(new Date(Date.parse(NOW) + 3_600_000).toISOString());
    const next = await syncDevice(t.ctx, deviceId);
    expect(next.calls).toBe(1);
    const hour = dexcomEgvs(dexcomUser, Date.parse(NOW), Date.parse(NOW) + 3_600_000);
    expect((await rows(pid, 'egv')).length).toBe(want.length + hour.length);
  });

  it("Dexcom's per-app budget: once the hour's calls across all devices are spent, no device calls until the next hour", async () => {
    const used = async () =>
      (
        await t.ctx.db
          .selectFrom('sync_app_budget')
          .select(['budget_calls', 'budget_hour'])
          .where('provider', '=', 'dexcom')
          .executeTakeFirstOrThrow()
      ).budget_calls;
    const { deviceId } = await linked('dexcom');
    // A sync's calls this hour are counted.
    expect((await syncDevice(t.ctx, deviceId)).status).toBe('synced');
    expect(await used()).toBeGreaterThan(0);
    const { user: otherUser, deviceId: otherDevice } = await linked('dexcom');
    // The budget is the app's (one row for every device): an hour no other test of this file syncs in,
    // so the count starts again with these syncs alone.
    clock.advance(2 * 60 * 60_000);
    // An app budget of one call an hour: the first device's sync takes it, the other's is refused.
    // (The registry gives each client its limit from the configuration.)
    expect(t.ctx.providers.links.dexcom.appCallsPerHour).toBe(t.ctx.config.SYNC_DEXCOM_APP_CALLS_PER_HOUR);
    const links = {
      ...t.ctx.providers.links,
      dexcom: { ...t.ctx.providers.links.dexcom, appCallsPerHour: 1 },
    };
    const tight = { ...t.ctx, providers: { ...t.ctx.providers, links } } as AppContext;
    expect((await syncDevice(tight, deviceId)).status).toBe('synced');
    expect(await used()).toBe(1);
    const sim = simControl(t, 'dexcom');
    const before = await sim.calls(otherUser);
    const refused = await syncDevice(tight, otherDevice);
    expect(refused.status).toBe('budget');
    expect(refused.errors).toEqual(['Hourly dexcom app budget spent; resuming next hour']);
    expect(refused.nextAllowedAt).toBe(
      new Date(Math.floor(clock.now().getTime() / 3_600_000 + 1) * 3_600_000).toISOString(),
    );
    expect(await sim.calls(otherUser)).toBe(before);
    expect(await used()).toBe(1);
  });
});
