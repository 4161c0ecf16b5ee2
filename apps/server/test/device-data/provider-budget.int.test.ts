/*
 * The provider's call budget (issue #21 §3), against the Fitbit simulator
 * over HTTP with the test clock (simulated time, the simulator's clock moved
 * with it): identical reads in flight and within 60 s are one provider call;
 * a year of weight is one call (Fitbit's body series by period, where the
 * logs allow 31 days a call) and loads; browsing every category and period
 * of one participant for ten simulated minutes spends at most the
 * interactive share and then answers 429 with the resume time, while the
 * background sync of that device still syncs and an export of that
 * participant completes.
 */

import { fitbitBodyPeriodFor, fitbitBodyPeriodStart, type Series } from '@trialwear/contract';
import { fitbitDay } from '@trialwear/simulators';
import { addDays, utcDate } from '@trialwear/zone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport } from '../../src/jobs/data-export/run-export.js';
import { syncDevice } from '../../src/jobs/device-sync/sync-device.js';
import { answerCacheOf } from '../../src/providers/answer-cache.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const HOUR = 3_600_000;
// Five minutes into an hour near the real time (the export's dates are checked against it).
const START = new Date(Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR + 5 * 60_000).toISOString();
const clock = testClock(START);
const enc = encodeURIComponent;

/** The data page's reads of one period ending `end` (every category's subjects, as the web asks them). */
function pagePaths(end: string, days: number): string[] {
  const s = addDays(end, -(days - 1));
  const series = [
    'steps',
    'distance',
    'floors',
    'calories',
    'minutesSedentary',
    'minutesLightlyActive',
    'minutesFairlyActive',
    'minutesVeryActive',
  ].map((r) => `/activities/${r}/date/${s}/${end}.json`);
  return [
    ...series,
    `/activities/heart/date/${s}/${end}.json`,
    `/sleep/date/${s}/${end}.json`,
    // Weight as the web asks it: the series, over 31 days by the smallest period ending at `end`.
    days <= 31
      ? `/body/weight/date/${s}/${end}.json`
      : `/body/weight/date/${end}/${fitbitBodyPeriodFor(s, end)}.json`,
    `/foods/log/caloriesIn/date/${s}/${end}.json`,
    `/foods/log/water/date/${s}/${end}.json`,
    `/spo2/date/${s}/${end}.json`,
    `/hrv/date/${s}/${end}.json`,
    `/br/date/${s}/${end}.json`,
    `/temp/skin/date/${s}/${end}.json`,
  ];
}
const PERIOD_DAYS = [1, 7, 30, 91, 182, 365];

describe('the provider call budget: browsing does not starve the sync and exports', () => {
  let t: TestApp;
  let a: TeamFixture;
  let trialId: number;
  const sim = () => simControl(t, 'fitbit');
  const dataOf = (pid: number) => (path: string) =>
    a.as.Viewer.get(`/api/getFitbitServerParticipantData/${pid}/-/${enc(path)}`);
  const advance = async (ms: number) => {
    clock.advance(ms);
    await sim().clock(clock.now().toISOString());
  };
  const budgetRow = (deviceId: number) =>
    t.ctx.db
      .selectFrom('device_sync_state')
      .select(['budget_calls', 'interactive_calls', 'budget_hour'])
      .where('participant_device_id', '=', deviceId)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Budget', { hiddenFields: [] });
    await storeMetrics(a, 'Fitbit Sense', ['steps', 'distance', 'resting_heart_rate']);
    ({ trialId } = await trialWithParticipants(a, 'Budget', []));
    await sim().clock(START);
    await sim().post('reset-rate-limit');
  });
  afterAll(() => t?.close());

  let participants = 0;
  /**
   * A participant of the test's own, linked, their device's budget untouched. The clock is not set
   * back between tests (the staff sessions were last seen at the latest time): each test counts from
   * its own start, and all of them stay within START's hour.
   */
  const browsing = async () => {
    participants += 1;
    const pid = (
      await a.as.Admin.post('/api/trialParticipants', { trialId, email: `browse${participants}@x.example` })
    ).json().participantId as number;
    const user = await linkParticipant(t, a, pid, 'fitbit');
    const deviceId = (
      await t.ctx.db
        .selectFrom('participant_devices')
        .select('id')
        .where('participant_id', '=', pid)
        .executeTakeFirstOrThrow()
    ).id;
    const data = dataOf(pid);
    // The profile (the participant's zone) is read once and kept: not part of what follows.
    expect((await data('/activities/steps/date/2020-01-01/2020-01-02.json')).statusCode).toBe(200);
    return { pid, user, deviceId, data };
  };

  it('two identical requests cost one provider call; within 60 s a reload costs none, after it one', async () => {
    const { user, data } = await browsing();
    const path = '/activities/steps/date/2026-01-01/2026-01-31.json';
    await sim().resetCalls();
    const [x, y] = await Promise.all([data(path), data(path)]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect(x.json().series).toHaveLength(1);
    expect(x.json().series).toEqual(y.json().series);
    expect(await sim().calls(user)).toBe(1);
    await advance(59_000);
    expect((await data(path)).statusCode).toBe(200);
    expect(await sim().calls(user)).toBe(1);
    await advance(2_000);
    expect((await data(path)).statusCode).toBe(200);
    expect(await sim().calls(user)).toBe(2);
  });

  it("a year of weight is ONE provider call (Fitbit's body series by period, where the logs need 12) and loads", async () => {
    const { user, data } = await browsing();
    const end = utcDate(clock.now());
    const path = `/body/weight/date/${end}/1y.json`;
    await sim().resetCalls();
    const res = await data(path);
    expect(res.statusCode, res.body).toBe(200);
    expect(await sim().calls(user)).toBe(1);
    const weight = (res.json().series as Series[]).find((s) => s.metric === 'weight')!;
    const series = (weight.days ?? []).map((d) => ({ date: d.date, value: d.value }));
    const want: Array<{ date: string; value: number | null }> = [];
    for (let d = fitbitBodyPeriodStart(end, '1y'); d <= end; d = addDays(d, 1))
      want.push({ date: d, value: fitbitDay(user, d).weightKg });
    expect(want.filter((w) => w.value !== null).length).toBeGreaterThan(100);
    expect(series).toEqual(want);
    // Shown again (a reload, another chart of the range): no call.
    expect((await data(path)).statusCode).toBe(200);
    expect(await sim().calls(user)).toBe(1);
    // Every page period of weight is one call, and the range form stays within Fitbit's 31 days.
    for (const days of PERIOD_DAYS) {
      answerCacheOf(t.ctx).clear();
      await sim().resetCalls();
      const p = pagePaths(end, days).find((x) => x.startsWith('/body/weight/'))!;
      expect((await data(p)).statusCode, p).toBe(200);
      expect(await sim().calls(user), p).toBe(1);
    }
    // Longer than a year in the range form is still refused before any call.
    await sim().resetCalls();
    expect((await data(`/body/weight/date/${addDays(end, -400)}/${end}.json`)).statusCode).toBe(400);
    expect(await sim().calls(user)).toBe(0);
  });

  it('ten simulated minutes of browsing every category and period: 429 with the resume time once the interactive share is spent; the sync and an export still work', async () => {
    const { pid, user, deviceId, data } = await browsing();
    // As at the start of an hour: the device's budget and the simulator's count at zero (a jump of
    // the clock to the next hour would end the staff sessions, idle for 30 minutes).
    const nextHour = Math.floor(clock.now().getTime() / HOUR + 1) * HOUR;
    await t.ctx.db
      .updateTable('device_sync_state')
      .set({ budget_calls: 0, interactive_calls: 0 })
      .where('participant_device_id', '=', deviceId)
      .execute();
    await sim().post('reset-rate-limit');
    await sim().resetCalls();
    const interactive = t.ctx.config.INTERACTIVE_CALLS_PER_HOUR;
    let ok = 0;
    const limited: Array<{ retryAfter: string | undefined; user: unknown; message: string }> = [];
    for (let minute = 0; minute < 10; minute++) {
      const end = utcDate(clock.now());
      for (const days of PERIOD_DAYS)
        for (const path of ['/overview', ...pagePaths(end, days)]) {
          const res = await data(path);
          if (res.statusCode === 429)
            limited.push({
              retryAfter: res.headers['retry-after'] as string | undefined,
              user: res.json().user,
              message: res.json().message,
            });
          else if (res.statusCode === 200 || res.statusCode === 404) ok++;
          else throw new Error(`${path}: ${res.statusCode} ${res.body}`);
        }
      await advance(61_000);
    }
    expect(ok).toBeGreaterThan(10);
    expect(limited.length).toBeGreaterThan(10);
    const resumesAt = new Date(nextHour).toISOString();
    for (const l of limited) {
      expect(l.message).toBe('Too Many Requests');
      expect(l.user).toEqual({ resumesAt });
      expect(Number(l.retryAfter)).toBeGreaterThan(0);
    }
    // The pages made at most their share of the hour's calls.
    const row = await budgetRow(deviceId);
    expect(row.interactive_calls).toBeLessThanOrEqual(interactive);
    expect(await sim().calls(user)).toBeLessThanOrEqual(interactive);

    // The background sync of that device still gets its calls.
    const synced = await syncDevice(t.ctx, deviceId);
    expect(synced.status, synced.errors.join('; ')).toBe('synced');
    expect(synced.calls).toBeGreaterThan(0);
    expect(synced.rowsUpserted).toBeGreaterThan(0);

    // An export of that participant completes (its fetch reads through the sync's share).
    const devices = (await a.as.User.get('/api/dataExport/devices')).json() as Array<{
      id: number;
      friendlyName: string;
    }>;
    const today = utcDate(clock.now());
    const job = await a.as.User.post('/api/dataExport/batchDataExport', {
      trialId,
      participantIds: [pid],
      deviceId: devices.find((d) => d.friendlyName === 'Fitbit Sense')!.id,
      metrics: ['steps', 'distance'],
      startDate: addDays(today, -60),
      endDate: addDays(today, -2),
      exportMode: 'single-tab',
      fileName: 'browsed',
    });
    expect(job.statusCode, job.body).toBe(200);
    expect(await runExport(t.ctx, job.json().jobId)).toMatchObject({ status: 'completed' });
    expect((await budgetRow(deviceId)).budget_calls).toBeLessThanOrEqual(
      t.ctx.config.PROVIDER_CALLS_PER_HOUR,
    );
  }, 240_000);

  it('a spent interactive share answers 429 with Retry-After and the resume instant, without calling the provider', async () => {
    const { user, deviceId, data } = await browsing();
    const hour = new Date(Math.floor(clock.now().getTime() / HOUR) * HOUR);
    await t.ctx.db
      .updateTable('device_sync_state')
      .set({
        budget_hour: hour,
        interactive_calls: t.ctx.config.INTERACTIVE_CALLS_PER_HOUR,
        budget_calls: 60,
      })
      .where('participant_device_id', '=', deviceId)
      .execute();
    await sim().resetCalls();
    const res = await data('/activities/steps/date/2025-02-01/2025-02-07.json');
    expect(res.statusCode).toBe(429);
    const resumesAt = new Date(hour.getTime() + HOUR);
    expect(res.json().user).toEqual({ resumesAt: resumesAt.toISOString() });
    expect(Number(res.headers['retry-after'])).toBe(
      Math.ceil((resumesAt.getTime() - clock.now().getTime()) / 1000),
    );
    expect(await sim().calls(user)).toBe(0);
    // The sync is not refused: its share is its own.
    const synced = await syncDevice(t.ctx, deviceId);
    expect(synced.status).toBe('synced');
  });

  it("when the sync's own share is spent, the sync badge and an export say they wait for the limit, until when", async () => {
    const { pid, deviceId } = await browsing();
    const hour = new Date(Math.floor(clock.now().getTime() / HOUR) * HOUR);
    const resumesAt = new Date(hour.getTime() + HOUR).toISOString();
    await t.ctx.db
      .updateTable('device_sync_state')
      .set({ budget_hour: hour, budget_calls: t.ctx.config.PROVIDER_CALLS_PER_HOUR, interactive_calls: 30 })
      .where('participant_device_id', '=', deviceId)
      .execute();
    // Another period than the earlier export: the store lacks it, so the export must call.
    const devices = (await a.as.User.get('/api/dataExport/devices')).json() as Array<{
      id: number;
      friendlyName: string;
    }>;
    await t.ctx.db
      .deleteFrom('export_fetch_coverage')
      .where('participant_device_id', '=', deviceId)
      .execute();
    const job = await a.as.User.post('/api/dataExport/batchDataExport', {
      trialId,
      participantIds: [pid],
      deviceId: devices.find((d) => d.friendlyName === 'Fitbit Sense')!.id,
      metrics: ['steps'],
      startDate: addDays(utcDate(clock.now()), -200),
      endDate: addDays(utcDate(clock.now()), -150),
      exportMode: 'single-tab',
      fileName: 'limited',
    });
    expect(job.statusCode, job.body).toBe(200);
    const id = job.json().jobId as string;
    expect(await runExport(t.ctx, id)).toMatchObject({ status: 'deferred' });

    const participants = (await a.as.Admin.get(`/api/trialParticipants/${trialId}`)).json()
      .participants as Array<{ id: number; sync: { status: string; resumesAt: string | null } }>;
    expect(participants.find((p) => p.id === pid)!.sync).toMatchObject({ status: 'waiting', resumesAt });
    const jobs = (await a.as.User.get('/api/dataExport/jobs?limit=10')).json().data as Array<{
      id: string;
      status: string;
      waiting: unknown;
    }>;
    expect(jobs.find((j) => j.id === id)).toMatchObject({
      status: 'pending',
      waiting: { brand: 'Fitbit', resumesAt },
    });
  });
});
