/*
 * The one-day page's reads from the store (issue #24 item 3): once the sync
 * has stored a day whole, a 1-minute heart-rate or steps read of it (whole,
 * or a window) and the day's 1-second heart rate are answered from
 * intraday_days without a provider call (the simulator counts the calls),
 * with the very points the provider's answer had and `source.stored` saying
 * when they were fetched; the day the sync is still on, a day it has not
 * reached, a window of 1-second samples and a day never stored are read
 * live. The route keeps its scope: a User not on the trial gets the
 * stranger's 404.
 */
import type { Series } from '@trialwear/contract';
import { fitbitUserId, fitbitUserTimezone } from '@trialwear/simulators';
import { addDays } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const NOW = '2027-04-20T00:40:00Z'; // 10:40 on the 20th in Sydney
const TODAY = '2027-04-20';
const clock = testClock(NOW);

type Answer = { timeZone: string; series?: Series[] };

describe('one-day reads from the store', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Stored day', { hiddenFields: [], allowedBrands: ['Fitbit'] });
    await storeMetrics(a, 'Fitbit Sense', ['heart_rate_intraday', 'steps_intraday', 'heart_rate_1sec']);
    ({ trialId } = await trialWithParticipants(a, 'Stored day', []));
    await simControl(t, 'fitbit').clock(NOW);
  });
  afterAll(() => t?.close());

  async function sydney(trial = trialId) {
    const clientId = t.ctx.providers.links.fitbit.settings.clientId;
    for (let i = 0; i < 80; i++) {
      n += 1;
      const pid = (
        await a.as.Admin.post('/api/trialParticipants', { trialId: trial, email: `day${n}@x.example` })
      ).json().participantId as number;
      if (fitbitUserTimezone(fitbitUserId(`${clientId}:${pid}`)).tz !== 'Australia/Sydney') continue;
      const user = await linkParticipant(t, a, pid, 'fitbit');
      const { id } = await t.ctx.db
        .selectFrom('participant_devices')
        .select('id')
        .where('participant_id', '=', pid)
        .executeTakeFirstOrThrow();
      return { pid, user, deviceId: id };
    }
    throw new Error('no participant in Sydney');
  }

  const read = async (pid: number, path: string, as: keyof TeamFixture['as'] = 'Viewer') => {
    const res = await a.as[as].get(
      `/api/getFitbitServerParticipantData/${pid}/-/${encodeURIComponent(path)}`,
    );
    return { status: res.statusCode, body: res.json() as Answer };
  };
  const points = (x: Answer, metric: string) => x.series?.find((s) => s.metric === metric)?.points ?? [];

  it('a day stored whole is drawn from the store, point for point the provider’s, without a call', async () => {
    const { pid, user, deviceId } = await sydney();
    const sim = simControl(t, 'fitbit');
    // 26 March: among the oldest 10 days of the backfill, which the sync's first run stores whole.
    const day = addDays(TODAY, -25);
    const paths = {
      heart: `/activities/heart/date/${day}/1d/1min.json`,
      steps: `/activities/steps/date/${day}/1d/1min.json`,
      window: `/activities/heart/date/${day}/1d/1min/time/08:00/08:30.json`,
      seconds: `/activities/heart/date/${day}/1d/1sec.json`,
    };
    // Before the sync: read live (what the provider answers).
    const live = {
      heart: (await read(pid, paths.heart)).body,
      steps: (await read(pid, paths.steps)).body,
      window: (await read(pid, paths.window)).body,
      seconds: (await read(pid, paths.seconds)).body,
    };
    expect(live.heart.series!.every((s) => s.source.stored === undefined)).toBe(true);
    expect(points(live.heart, 'heart_rate_intraday').length).toBeGreaterThan(600);
    expect(points(live.window, 'heart_rate_intraday').length).toBe(31);

    // The sync's first run stores the backfill's oldest 10 days of each intraday metric.
    expect((await syncDevice(t.ctx, deviceId)).status).toBe('synced');
    // The answer cache (60 s) must not answer for the store: the clock moves on.
    clock.set(new Date(Date.parse(NOW) + 5 * 60_000).toISOString());
    try {
      const before = await sim.calls(user);
      const stored = {
        heart: await read(pid, paths.heart),
        steps: await read(pid, paths.steps),
        window: await read(pid, paths.window),
        seconds: await read(pid, paths.seconds),
      };
      expect((await sim.calls(user)) - before).toBe(0);
      expect(points(live.seconds, 'heart_rate_intraday').length).toBeGreaterThan(3000);
      for (const [key, metric] of [
        ['heart', 'heart_rate_intraday'],
        ['steps', 'steps'],
        ['window', 'heart_rate_intraday'],
        ['seconds', 'heart_rate_intraday'],
      ] as const) {
        const got = stored[key];
        expect(got.status, key).toBe(200);
        expect(got.body.timeZone).toBe('Australia/Sydney');
        expect(points(got.body, metric), key).toEqual(points(live[key], metric));
        const series = got.body.series!;
        expect(series).toHaveLength(1);
        expect(series[0]).toMatchObject({ metric, source: { provider: 'fitbit', requests: [] } });
        expect(series[0]!.source.stored?.syncedAt).toBe(new Date(NOW).toISOString());
      }
      // The stored day sums to the day's steps the provider gives.
      const total = points(stored.steps.body, 'steps').reduce((s, p) => s + (p.value ?? 0), 0);
      const daily = (await read(pid, `/activities/steps/date/${day}/${day}.json`)).body;
      expect(total).toBe(daily.series![0]!.days![0]!.value);

      // Read live: the day the sync goes on from (its cursor), a day it has not reached, a window of
      // 1-second samples, a day before the backfill.
      for (const path of [
        `/activities/heart/date/${addDays(TODAY, -20)}/1d/1min.json`,
        `/activities/heart/date/${TODAY}/1d/1min.json`,
        `/activities/heart/date/${day}/1d/1sec/time/08:00/08:30.json`,
        `/activities/heart/date/${addDays(TODAY, -40)}/1d/1min.json`,
      ]) {
        const calls = await sim.calls(user);
        const got = await read(pid, path);
        expect(got.status, path).toBe(200);
        expect(
          got.body.series!.every((s) => s.source.stored === undefined),
          path,
        ).toBe(true);
        expect(await sim.calls(user), path).toBe(calls + 1);
      }
    } finally {
      clock.set(NOW);
    }
  });

  it('keeps its scope: a User not on the trial gets the same 404 as for an unknown participant', async () => {
    // A trial the User is not on (trialWithParticipants puts the User on the other).
    const closed = (
      await a.as.Admin.post('/api/userTrials', { trialNumber: '2', trialName: 'Closed' })
    ).json().trialId as number;
    const { pid, deviceId } = await sydney(closed);
    expect((await read(pid, `/activities/steps/date/${TODAY}/${TODAY}.json`, 'Admin')).status).toBe(200);
    await syncDevice(t.ctx, deviceId); // the oldest 10 days, stored whole
    const path = `/activities/heart/date/${addDays(TODAY, -27)}/1d/1min.json`;
    expect((await read(pid, path, 'Admin')).body.series?.[0]?.source.stored).toBeDefined();
    const stranger = await read(pid, path, 'User');
    const unknown = await read(999_999, path, 'User');
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual(unknown.body);
  });
});
