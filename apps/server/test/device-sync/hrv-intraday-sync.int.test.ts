/*
 * HRV through the night through the sync (issue #24 item 1): for a
 * participant in Sydney synced on 2027-04-20, every 5-minute HRV sample of
 * the simulator's nights of the 30-day backfill is stored once as an
 * `hrv_intraday` reading at its own instant, with its local date and time,
 * the offset then in force (the night the clocks went back, 4 April,
 * included) and Fitbit's coverage, hf and lf; a second sync changes
 * nothing. The same samples through the Google Health API: parity.int.test.ts.
 */
import { fitbitDay, fitbitHrvIntraday } from '@trialwear/simulators';
import { addDays, instantOfLocal, localDate, offsetMinutesAt, wallClock } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedReadings } from '../../src/features/readings/repo.js';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import {
  linkParticipant,
  participantInZone,
  simControl,
  trialWithParticipants,
} from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-04-20T00:40:00Z';
const clock = testClock(NOW);
const TZ = 'Australia/Sydney';

describe('HRV intraday through the sync', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'HRV nights', { hiddenFields: [], allowedBrands: ['Fitbit'] });
    await storeMetrics(a, 'Fitbit Sense', ['hrv_intraday']);
    ({ trialId } = await trialWithParticipants(a, 'HRV nights', []));
    await simControl(t, 'fitbit').clock(NOW);
  });
  afterAll(() => t?.close());

  it("stores each night's 5-minute samples as the simulator has them, across the clocks going back", async () => {
    const pid = await participantInZone(t, a, trialId, TZ, 'hrv');
    const user = await linkParticipant(t, a, pid, 'fitbit');
    const { id: deviceId } = await t.ctx.db
      .selectFrom('participant_devices')
      .select('id')
      .where('participant_id', '=', pid)
      .executeTakeFirstOrThrow();
    expect((await syncDevice(t.ctx, deviceId)).status).toBe('synced');

    // The truth: every night whose wake-up date is in the 30 days up to the participant's today.
    const today = localDate(TZ, Date.parse(NOW));
    const truth = Array.from({ length: 30 }, (_, i) => addDays(today, i - 29)).flatMap((date) => {
      const s = fitbitDay(user, date).sleep;
      return s ? fitbitHrvIntraday(user, date, instantOfLocal(TZ, s.start.slice(0, 19))) : [];
    });
    expect(truth.length).toBeGreaterThan(1000);
    const stored = await storedReadings(t.ctx.db, pid, 'hrv_intraday');
    expect(
      stored.map((r) => ({
        at: new Date(r.measured_at).getTime(),
        date: r.local_date,
        time: r.local_time,
        offset: r.utc_offset_minutes,
        value: r.value,
        detail: r.value_json,
      })),
    ).toEqual(
      truth.map((x) => ({
        at: x.at,
        date: wallClock(TZ, x.at).slice(0, 10),
        time: wallClock(TZ, x.at).slice(11, 19),
        offset: offsetMinutesAt(TZ, x.at),
        value: x.rmssd,
        detail: { coverage: x.coverage, hf: x.hf, lf: x.lf },
      })),
    );
    // The night the clocks went back (03:00 AEDT → 02:00 AEST on 4 April): both 02:xx hours are there.
    const changeNight = stored.filter(
      (r) => r.local_date === '2027-04-04' && r.local_time?.startsWith('02:'),
    );
    expect(new Set(changeNight.map((r) => r.utc_offset_minutes))).toEqual(new Set([660, 600]));

    // Synced again: stored once.
    expect((await syncDevice(t.ctx, deviceId)).status).toBe('synced');
    expect(await storedReadings(t.ctx.db, pid, 'hrv_intraday')).toHaveLength(stored.length);
  });
});
