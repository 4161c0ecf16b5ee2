/*
 * Sleep stage intervals through the sync (issue #24 item 1): for a
 * participant in Sydney synced on 2027-04-20, each night's sleep_stages
 * reading keeps, beside the stage minutes, the stage intervals as Fitbit
 * lists them (local start, level, seconds): the simulator's own sequence,
 * adding up to each stage's minutes and covering the night from its start
 * to its end, the night the clocks went back (4 April) included. The same
 * intervals through the Google Health API: parity.int.test.ts.
 */
import { fitbitDay, fitbitSleepStages } from '@trialwear/simulators';
import { instantOfLocal, wallClockMs } from '@trialwear/zone';
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

interface Stages {
  startTime: string;
  endTime: string;
  deep: number;
  light: number;
  rem: number;
  wake: number;
  intervals: Array<{ dateTime: string; level: string; seconds: number }>;
}

describe('sleep stage intervals through the sync', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Sleep stages', { hiddenFields: [], allowedBrands: ['Fitbit'] });
    await storeMetrics(a, 'Fitbit Sense', ['sleep_stages']);
    ({ trialId } = await trialWithParticipants(a, 'Sleep stages', []));
    await simControl(t, 'fitbit').clock(NOW);
  });
  afterAll(() => t?.close());

  it("each night keeps the simulator's stage intervals, which add up to its stage minutes and cover it", async () => {
    const pid = await participantInZone(t, a, trialId, 'Australia/Sydney', 'night');
    const user = await linkParticipant(t, a, pid, 'fitbit');
    const { id: deviceId } = await t.ctx.db
      .selectFrom('participant_devices')
      .select('id')
      .where('participant_id', '=', pid)
      .executeTakeFirstOrThrow();
    expect((await syncDevice(t.ctx, deviceId)).status).toBe('synced');
    const nights = await storedReadings(t.ctx.db, pid, 'sleep_stages');
    expect(nights.length).toBeGreaterThan(15);
    const tz = 'Australia/Sydney';
    for (const night of nights) {
      const v = night.value_json as Stages;
      const date = night.local_date;
      const sleep = fitbitDay(user, date).sleep!;
      let at = instantOfLocal(tz, sleep.start.slice(0, 19));
      expect(v.intervals, date).toEqual(
        fitbitSleepStages(user, date).map((x) => {
          const entry = { dateTime: wallClockMs(tz, at), level: x.level, seconds: x.minutes * 60 };
          at += x.minutes * 60_000;
          return entry;
        }),
      );
      for (const level of ['deep', 'light', 'rem', 'wake'] as const)
        expect(
          v.intervals.filter((x) => x.level === level).reduce((s, x) => s + x.seconds, 0),
          `${date} ${level}`,
        ).toBe(v[level] * 60);
      expect(v.intervals[0]!.dateTime).toBe(v.startTime);
      const last = v.intervals.at(-1)!;
      expect(
        wallClockMs(tz, instantOfLocal(tz, last.dateTime.slice(0, 19)) + last.seconds * 1000),
        date,
      ).toBe(v.endTime);
    }
    expect(nights.some((n) => n.local_date === '2027-04-04')).toBe(true);
  });
});
