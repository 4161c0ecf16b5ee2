/*
 * Steps per minute through the background sync (issue #24 item 1), for a
 * participant in Sydney synced on 2027-04-20 (the 30 days back include 4
 * April, when the clocks went back), through the legacy Fitbit Web API and
 * through the Google Health API: every stored minute equals the simulator's
 * own generator at its local time and offset, each local day's minutes sum
 * to the daily steps the same API gives, the backfill is spread over runs
 * within the hour's budget, and a day the provider revised replaces the
 * stored day (intraday_days, decision 039) instead of adding to it.
 */
import { fitbitDay, fitbitIntradayDataset, fitbitUserId, fitbitUserTimezone } from '@trialwear/simulators';
import { addDays, instantOfLocal } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedReadings } from '../../src/features/readings/repo.js';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { INTRADAY_DAYS_PER_RUN } from '../../src/providers/fitbit/sync.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import {
  linkLegacyFitbit,
  linkParticipant,
  simControl,
  trialWithParticipants,
} from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-04-20T00:40:00Z'; // 10:40 on the 20th in Sydney
const TODAY = '2027-04-20';
const DATES = Array.from({ length: 30 }, (_, i) => addDays(TODAY, i - 29));
const clock = testClock(NOW);
/** Sydney in April 2027: +11:00 until 03:00 on the 4th (the first 02:00–02:59), +10:00 after. */
const sydneyOffset = (date: string, time = '00:00:00') =>
  date < '2027-04-04' || (date === '2027-04-04' && time < '03:00:00') ? 660 : 600;

describe('intraday steps through the sync, both Fitbit APIs', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now, env: { FITBIT_API: 'google_health' } });
    a = await teamWithRoles(t, 'Intraday steps', { hiddenFields: [], allowedBrands: ['Fitbit'] });
    await storeMetrics(a, 'Fitbit Sense', ['steps', 'steps_intraday']);
    ({ trialId } = await trialWithParticipants(a, 'Intraday steps', []));
    await simControl(t, 'fitbit').clock(NOW);
    await simControl(t, 'google-health').clock(NOW);
  });
  afterAll(() => t?.close());

  /** A participant of the test's own in Sydney, linked through the API named. */
  async function sydneyLinked(api: 'legacy' | 'google') {
    for (let i = 0; i < 80; i++) {
      n += 1;
      const pid = (
        await a.as.Admin.post('/api/trialParticipants', { trialId, email: `steps${n}@x.example` })
      ).json().participantId as number;
      const clientId = t.ctx.providers.links.fitbit.settings.clientId;
      if (fitbitUserTimezone(fitbitUserId(`${clientId}:${pid}`)).tz !== 'Australia/Sydney') continue;
      // The same person through both APIs (parity.int.test.ts): linked the legacy way (whose
      // generator is the truth below), then, where asked, consenting again through Google.
      const link = await linkLegacyFitbit(t, a, pid);
      if (api === 'google') await linkParticipant(t, a, pid, 'fitbit');
      return { pid, deviceId: link.id, legacyUser: link.provider_user_id! };
    }
    throw new Error('no participant in Sydney');
  }

  const cursorDate = async (deviceId: number) =>
    (
      await t.ctx.db
        .selectFrom('device_sync_cursors')
        .select('cursor_date')
        .where('participant_device_id', '=', deviceId)
        .where('metric_key', '=', 'steps_intraday')
        .executeTakeFirst()
    )?.cursor_date ?? null;

  /** Syncs until the intraday cursor reaches today; answers the runs it took. */
  async function syncToToday(deviceId: number) {
    let runs = 0;
    while ((await cursorDate(deviceId)) !== TODAY) {
      const r = await syncDevice(t.ctx, deviceId);
      expect(r.status, r.errors.join('; ')).toBe('synced');
      // The daily series and at most a run's intraday days: never the whole backfill at once.
      expect(r.calls).toBeLessThanOrEqual(2 + INTRADAY_DAYS_PER_RUN);
      runs += 1;
      expect(runs).toBeLessThanOrEqual(5);
    }
    return runs;
  }

  for (const api of ['legacy', 'google'] as const)
    it(`${api}: every minute is the simulator's, and each local day's minutes sum to its daily steps`, async () => {
      const { pid, deviceId, legacyUser } = await sydneyLinked(api);
      expect(await syncToToday(deviceId)).toBe(4);
      const minutes = await storedReadings(t.ctx.db, pid, 'steps_intraday');
      const daily = new Map(
        (await storedReadings(t.ctx.db, pid, 'steps')).map((r) => [r.local_date, r.value] as const),
      );
      for (const date of DATES) {
        const want = fitbitIntradayDataset(legacyUser, date, 'steps', '1min').dataset;
        const mine = minutes.filter((m) => m.local_date === date);
        expect(
          mine.map((m) => [m.local_time, m.value]),
          date,
        ).toEqual(want.map((w) => [w.time, w.value]));
        for (const m of mine)
          expect(m.utc_offset_minutes, `${date} ${m.local_time}`).toBe(sydneyOffset(date, m.local_time!));
        const sum = mine.reduce((s, m) => s + m.value!, 0);
        expect(sum, `${date}: minutes vs the day's steps`).toBe(daily.get(date));
        expect(sum).toBe(fitbitDay(legacyUser, date).steps);
      }
      // The night clocks went back: 02:59 (+11:00) is an hour and a minute before 03:00 (+10:00).
      const back = minutes.filter((m) => m.local_date === '2027-04-04');
      const at = (time: string) => back.find((m) => m.local_time === time)!.measured_at.getTime();
      expect(at('03:00:00') - at('02:59:00')).toBe(61 * 60_000);
      expect(minutes.every((m) => m.provider === (api === 'legacy' ? 'fitbit' : 'google_health'))).toBe(true);
    });

  it("heart rate at 1 second, for a team that stores it: every sample the simulator's, kept apart from the 1-minute", async () => {
    const b = await teamWithRoles(t, 'One second', { hiddenFields: [], allowedBrands: ['Fitbit'] });
    await storeMetrics(b, 'Fitbit Sense', ['heart_rate_1sec']);
    const { trialId: trial } = await trialWithParticipants(b, 'One second', []);
    const clientId = t.ctx.providers.links.fitbit.settings.clientId;
    for (let i = 0; i < 80; i++) {
      n += 1;
      const pid = (
        await b.as.Admin.post('/api/trialParticipants', { trialId: trial, email: `sec${n}@x.example` })
      ).json().participantId as number;
      if (fitbitUserTimezone(fitbitUserId(`${clientId}:${pid}`)).tz !== 'Australia/Sydney') continue;
      const link = await linkLegacyFitbit(t, b, pid);
      const r = await syncDevice(t.ctx, link.id);
      expect(r.status, r.errors.join('; ')).toBe('synced');
      expect(r.metrics).toEqual(['heart_rate_1sec']);
      expect(r.calls).toBe(INTRADAY_DAYS_PER_RUN + 1); // 10 days and the profile's zone
      const stored = await storedReadings(t.ctx.db, pid, 'heart_rate_1sec');
      // The first run's 10 days (oldest first).
      let samples = 0;
      for (const date of DATES.slice(0, INTRADAY_DAYS_PER_RUN)) {
        const want = fitbitIntradayDataset(link.provider_user_id!, date, 'heart', '1sec').dataset;
        samples += want.length; // (a day in the drawer has none)
        expect(
          stored.filter((m) => m.local_date === date).map((m) => [m.local_time, m.value]),
          date,
        ).toEqual(want.map((w) => [w.time, w.value]));
      }
      expect(samples).toBeGreaterThan(20_000);
      expect(stored).toHaveLength(samples);
      expect(await storedReadings(t.ctx.db, pid, 'heart_rate_intraday')).toEqual([]);
      return;
    }
    throw new Error('no participant in Sydney');
  });

  it('a day the provider revised replaces the stored day; the same day again changes nothing', async () => {
    const { pid, deviceId, legacyUser } = await sydneyLinked('legacy');
    await syncToToday(deviceId);
    const before = await storedReadings(t.ctx.db, pid, 'steps_intraday', { from: TODAY, to: TODAY });
    expect(before.length).toBeGreaterThan(0);
    expect((await syncDevice(t.ctx, deviceId)).rowsUpserted).toBe(0);
    // The tracker uploads again: today was worn 5 hours only, so its minutes change.
    await simControl(t, 'fitbit').post('wear', { userId: legacyUser, from: TODAY, days: 1, hoursPerDay: 5 });
    const want = fitbitIntradayDataset(legacyUser, TODAY, 'steps', '1min').dataset;
    expect(want.map((w) => w.value)).not.toEqual(before.map((b) => b.value));
    const r = await syncDevice(t.ctx, deviceId);
    expect(r.status).toBe('synced');
    const after = await storedReadings(t.ctx.db, pid, 'steps_intraday', { from: TODAY, to: TODAY });
    expect(after.map((m) => [m.local_time, m.value])).toEqual(want.map((w) => [w.time, w.value]));
    const days = await t.ctx.db
      .selectFrom('intraday_days')
      .select(['local_date', 'value_count'])
      .where('participant_id', '=', pid)
      .where('metric_key', '=', 'steps_intraday')
      .where('local_date', '=', TODAY)
      .execute();
    expect(days).toEqual([{ local_date: TODAY, value_count: want.length }]);
  });

  it('days read before the tracker uploaded them whole are read again once its upload covers them', async () => {
    const { pid, deviceId, legacyUser } = await sydneyLinked('legacy');
    const tz = 'Australia/Sydney';
    // The device check last saw the tracker upload at 14:00 on the 17th (away from the phone since).
    const uploadedAt = (local: string) =>
      t.ctx.db
        .insertInto('device_sync_state')
        .values({
          participant_device_id: deviceId,
          provider_last_sync_at: new Date(instantOfLocal(tz, local)),
        })
        .onConflict((oc) =>
          oc
            .column('participant_device_id')
            .doUpdateSet({ provider_last_sync_at: new Date(instantOfLocal(tz, local)) }),
        )
        .execute();
    await uploadedAt('2027-04-17T14:00:00');
    await syncToToday(deviceId);
    const completeDate = async () =>
      (
        await t.ctx.db
          .selectFrom('device_sync_cursors')
          .select('complete_date')
          .where('participant_device_id', '=', deviceId)
          .where('metric_key', '=', 'steps_intraday')
          .executeTakeFirstOrThrow()
      ).complete_date;
    expect(await completeDate()).toBe('2027-04-16');

    // The tracker comes back and uploads: the 18th turns out to have been worn 5 hours only.
    await simControl(t, 'fitbit').post('wear', {
      userId: legacyUser,
      from: '2027-04-18',
      days: 1,
      hoursPerDay: 5,
    });
    const stale = await storedReadings(t.ctx.db, pid, 'steps_intraday', {
      from: '2027-04-18',
      to: '2027-04-18',
    });
    expect(stale.map((m) => [m.local_time, m.value])).not.toEqual(
      fitbitIntradayDataset(legacyUser, '2027-04-18', 'steps', '1min').dataset.map((w) => [w.time, w.value]),
    );
    await uploadedAt('2027-04-20T10:30:00');
    const sim = simControl(t, 'fitbit');
    const before = await sim.calls(legacyUser);
    const r = await syncDevice(t.ctx, deviceId);
    expect(r.status).toBe('synced');
    // The daily steps, and the 17th to today again.
    expect((await sim.calls(legacyUser)) - before).toBe(1 + 4);
    for (const date of ['2027-04-17', '2027-04-18', '2027-04-19'])
      expect(
        (await storedReadings(t.ctx.db, pid, 'steps_intraday', { from: date, to: date })).map((m) => [
          m.local_time,
          m.value,
        ]),
        date,
      ).toEqual(
        fitbitIntradayDataset(legacyUser, date, 'steps', '1min').dataset.map((w) => [w.time, w.value]),
      );
    expect(await completeDate()).toBe('2027-04-19');
    // Nothing more to catch up: the next run reads today only.
    const again = await sim.calls(legacyUser);
    await syncDevice(t.ctx, deviceId);
    expect((await sim.calls(legacyUser)) - again).toBe(1 + 1);
  });
});
