/*
 * Fitbit tracker data over real HTTP to the mounted simulator: each answer
 * is compared with the simulator's own generator per local date, in the
 * provider's units; the allow-list refuses before any provider call; the
 * expired-token, 429 and no-data paths; team scoping and roles; the
 * overview and the local summary against a hand-computed 7-vs-7.
 */

import { DATA_MESSAGES, fitbitBodyPeriodStart, type Series } from '@trialwear/contract';
import { fitbitDay, fitbitIntradayDataset, fitbitUserTimezone } from '@trialwear/simulators';
import { addDays, localDate } from '@trialwear/zone';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answerCacheOf } from '../../src/providers/answer-cache.js';
import { legacyToSeries } from '../../src/providers/fitbit/legacy-series.js';
import { loadTokens } from '../../src/providers/token-store.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../support/linked-participant.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

// A fixed instant for the portal and the simulator alike: 18:00 UTC, a Monday.
const NOW = '2027-03-15T18:00:00Z';
const clock = testClock(NOW);

const localToday = (tz: string) => localDate(tz, Date.parse(NOW));
const day = addDays;
const enc = encodeURIComponent;

describe('Fitbit tracker data', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let trialId: number;
  let otherTeam: number;
  const sim = () => simControl(t, 'fitbit');
  const data = (as: TeamFixture['as'][keyof TeamFixture['as']], id: number, path: string) =>
    as.get(`/api/getFitbitServerParticipantData/${id}/-/${enc(path)}`);
  /** The answer's series of `metric` (the route answers normalized series, decision 030). */
  const seriesIn = (body: { series?: Series[] }, metric: string) => {
    const s = body.series?.find((x) => x.metric === metric);
    if (!s) throw new Error(`no ${metric} series in ${JSON.stringify(body).slice(0, 200)}`);
    return s;
  };
  const daysIn = (body: { series?: Series[] }, metric: string) =>
    (seriesIn(body, metric).days ?? []).map((d) => ({ date: d.date, value: d.value }));

  beforeAll(async () => {
    t = await createTestApp({ listen: true, now: clock.now });
    a = await teamWithRoles(t, 'Data A', { hiddenFields: [] });
    b = await teamWithRoles(t, 'Data B', { hiddenFields: [] });
    ({ trialId } = await trialWithParticipants(a, 'Data', []));
    [otherTeam] = (await trialWithParticipants(b, 'B', ['other@x.example'])).ids as [number];
    await sim().clock(NOW);
    await linkParticipant(t, b, otherTeam, 'fitbit');
  });
  afterAll(() => t?.close());

  let participants = 0;
  /** A participant of the test's own, not linked. */
  const newParticipant = async () => {
    participants += 1;
    const email = `steps${participants}@x.example`;
    const pid = (await a.as.Admin.post('/api/trialParticipants', { trialId, email })).json()
      .participantId as number;
    return { pid, email };
  };
  /**
   * A participant of the test's own, linked: their simulated Fitbit user. Their profile (the zone)
   * is read once and kept, as for a participant whose data was read before: not part of the test.
   */
  const linked = async () => {
    const { pid, email } = await newParticipant();
    const user = await linkParticipant(t, a, pid, 'fitbit');
    expect(
      (await data(a.as.Viewer, pid, '/activities/steps/date/2020-01-01/2020-01-02.json')).statusCode,
    ).toBe(200);
    return { pid, email, user };
  };
  // Each case is about the provider's own answer: none is served from the 60-s answer cache
  // (provider-budget.int.test.ts tests the cache).
  beforeEach(() => {
    if (t) answerCacheOf(t.ctx).clear();
  });

  it("a 7-day steps series is the simulator's, per local date, with the participant's zone", async () => {
    const { pid, user } = await linked();
    const res = await data(a.as.Viewer, pid, '/activities/steps/date/2027-03-01/2027-03-07.json');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.timeZone).toBe(fitbitUserTimezone(user).tz);
    expect(body.participantId).toBe(pid);
    expect(seriesIn(body, 'steps')).toMatchObject({ unit: 'steps', timeZone: body.timeZone });
    expect(daysIn(body, 'steps')).toEqual(
      Array.from({ length: 7 }, (_, i) => {
        const d = day('2027-03-01', i);
        return { date: d, value: fitbitDay(user, d).steps };
      }),
    );
  });

  it('distance stays in km, resting heart rate in bpm, weight logs in kg', async () => {
    const { pid, user } = await linked();
    const distance = (
      await data(a.as.User, pid, '/activities/distance/date/2027-03-01/2027-03-03.json')
    ).json();
    expect(seriesIn(distance, 'distance').unit).toBe('km');
    expect(daysIn(distance, 'distance')[1]).toEqual({
      date: '2027-03-02',
      value: fitbitDay(user, '2027-03-02').distanceKm,
    });
    const heart = (await data(a.as.User, pid, '/activities/heart/date/2027-03-01/2027-03-10.json')).json();
    expect(seriesIn(heart, 'resting_heart_rate').unit).toBe('bpm');
    const rhr = daysIn(heart, 'resting_heart_rate');
    expect(rhr.length).toBe(10);
    for (const e of rhr) expect(e.value).toBe(fitbitDay(user, e.date).restingHeartRate);
    const weights = (await data(a.as.User, pid, '/body/log/weight/date/2027-02-10/2027-03-10.json')).json();
    const expected = Array.from({ length: 29 }, (_, i) => day('2027-02-10', i)).filter(
      (d) => fitbitDay(user, d).weightKg !== null,
    );
    expect(seriesIn(weights, 'weight').unit).toBe('kg');
    expect(seriesIn(weights, 'weight').points?.map((p) => [p.date, p.value])).toEqual(
      expected.map((d) => [d, fitbitDay(user, d).weightKg]),
    );
  });

  it("a year of weight is ONE provider call (the body series by period) and is the generator's weight per local date", async () => {
    const { pid, user } = await linked();
    const end = localToday(fitbitUserTimezone(user).tz);
    await sim().resetCalls();
    const res = await data(a.as.User, pid, `/body/weight/date/${end}/1y.json`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await sim().calls(user)).toBe(1);
    // Fitbit lists "0" for a day without a weighing: no value (null) in the series.
    const series = daysIn(res.json(), 'weight');
    const start = fitbitBodyPeriodStart(end, '1y');
    const want: Array<{ date: string; value: number | null }> = [];
    for (let d = start; d <= end; d = day(d, 1)) want.push({ date: d, value: fitbitDay(user, d).weightKg });
    expect(want.length).toBeGreaterThanOrEqual(365);
    expect(want.filter((w) => w.value !== null).length).toBeGreaterThan(150);
    expect(series).toEqual(want);
    // The same days as the logs, 31 days at a time: the two endpoints agree per local date.
    const logs = (await data(a.as.User, pid, `/body/log/weight/date/${day(end, -30)}/${end}.json`)).json();
    for (const w of seriesIn(logs, 'weight').points ?? [])
      expect(series.find((x) => x.date === w.date)?.value).toBe(w.value);
    // Anything but a documented period is refused before any call.
    await sim().resetCalls();
    for (const p of [`/body/weight/date/${end}/2y.json`, `/body/weight/date/${end}/365d.json`])
      expect((await data(a.as.User, pid, p)).statusCode, p).toBe(400);
    expect(await sim().calls(user)).toBe(0);
  });

  it("one day's heart rate at 1 second and steps at 15 minutes are the simulator's datasets", async () => {
    const { pid, user } = await linked();
    let d = '2027-03-02';
    while (!fitbitDay(user, d).worn) d = day(d, -1);
    const heart = await data(a.as.Viewer, pid, `/activities/heart/date/${d}/1d/1sec.json`);
    expect(heart.statusCode).toBe(200);
    const tz = fitbitUserTimezone(user).tz;
    // Each sample at its local time on that date, its instant and offset in the participant's zone.
    const points = (body: { series?: Series[] }, metric: string) =>
      (seriesIn(body, metric).points ?? []).map((p) => {
        expect(localDate(tz, Date.parse(p.at))).toBe(d);
        expect(p.date).toBe(d);
        return { time: p.time, value: p.value };
      });
    const hr = points(heart.json(), 'heart_rate_intraday');
    const wantHr = fitbitIntradayDataset(user, d, 'heart', '1sec').dataset;
    expect(wantHr.length).toBeGreaterThan(5_000);
    expect(hr).toEqual(wantHr);
    const steps = await data(a.as.Viewer, pid, `/activities/steps/date/${d}/1d/15min/time/06:00/12:00.json`);
    const want = fitbitIntradayDataset(user, d, 'steps', '15min', ['06:00', '12:00']).dataset;
    expect(want.length).toBe(25);
    expect(points(steps.json(), 'steps')).toEqual(want);
  });

  it('a list read (its query string inside the one encoded segment) answers the page Fitbit lists', async () => {
    const { pid, user } = await linked();
    const res = await data(
      a.as.Viewer,
      pid,
      '/sleep/list.json?beforeDate=2027-03-10&sort=desc&limit=5&offset=0',
    );
    expect(res.statusCode).toBe(200);
    const sleep = seriesIn(res.json(), 'sleep_duration').points ?? [];
    const want: string[] = [];
    for (let d = day('2027-03-10', -1); want.length < 5; d = day(d, -1))
      if (fitbitDay(user, d).sleep) want.push(d);
    // Newest first, as asked (sort=desc); each sleep dated by its date of sleep.
    expect(sleep.map((s) => [s.date, s.value])).toEqual(
      want.map((d) => [d, fitbitDay(user, d).sleep!.minutesAsleep]),
    );
  });

  it('an unknown resource path, an impossible date or a range over the maximum → 400 and no provider call', async () => {
    const { pid, user } = await linked();
    await sim().resetCalls();
    for (const path of [
      '/activities/heartbeat/date/2027-03-01/2027-03-07.json',
      '/activities/steps/date/2027-02-30/2027-03-07.json',
      '/activities/steps/date/2027-03-07/2027-03-01.json',
      '/sleep/date/2026-01-01/2027-03-01.json', // sleep: at most 100 days
      '/activities/heart/date/2026-01-01/2027-03-01.json', // heart: at most a year
      'https://evil.example/steal',
      '/../../oauth2/token',
    ]) {
      const res = await data(a.as.Admin, pid, path);
      expect(res.statusCode, path).toBe(400);
      expect(res.json()).toMatchObject({ message: DATA_MESSAGES.unknownResource, reason: 'ValidationError' });
    }
    expect(await sim().calls(user)).toBe(0);
  });

  it("another team's participant is a 404 like an unknown id; an unlinked participant is told so", async () => {
    for (const id of [otherTeam, 99_999]) {
      const res = await data(a.as.Sys_Admin, id, '/activities/steps/date/2027-03-01/2027-03-07.json');
      expect(res.statusCode).toBe(404);
    }
    const { pid: unlinked } = await newParticipant();
    const res = await data(a.as.Admin, unlinked, '/activities/steps/date/2027-03-01/2027-03-07.json');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: DATA_MESSAGES.notAuthorized, displayToUser: true });
  });

  it('an expired token is refreshed once and the call retried', async () => {
    const { pid, user } = await linked();
    const version = async () =>
      (
        await t.ctx.db
          .selectFrom('provider_tokens')
          .select('version')
          .where(
            'participant_device_id',
            'in',
            t.ctx.db.selectFrom('participant_devices').select('id').where('participant_id', '=', pid),
          )
          .executeTakeFirstOrThrow()
      ).version;
    const before = await version();
    await sim().expire(user);
    await sim().resetCalls();
    const res = await data(a.as.Viewer, pid, '/activities/floors/date/2027-03-01/2027-03-02.json');
    expect(res.statusCode).toBe(200);
    expect(daysIn(res.json(), 'floors')[0]?.value).toBe(fitbitDay(user, '2027-03-01').floors);
    expect(await version()).toBe(before + 1);
    // The expired call and its one retry (the zone is cached: no profile call).
    expect(await sim().calls(user)).toBe(2);
  });

  it("a 429 is passed on as 'Too Many Requests' with the provider's Retry-After, after exactly one call", async () => {
    const { pid, user } = await linked();
    await sim().resetCalls();
    await sim().failNext(429, 3);
    try {
      const res = await data(a.as.Admin, pid, '/activities/steps/date/2027-03-01/2027-03-07.json');
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ message: 'Too Many Requests', displayToUser: true });
      // The simulator's clock was set to the top of an hour and has run a few seconds since.
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(await sim().calls(user)).toBe(1);
    } finally {
      // The failures left are the simulator's (every test's): none for the next test, even when this one fails.
      await sim().failNext(429, 0);
    }
  });

  it("a provider validation error is shown with Fitbit's message; a 5xx is 'Error: Fitbit request failed!'", async () => {
    const { pid } = await linked();
    await sim().failNext(503);
    const res = await data(a.as.Admin, pid, '/activities/steps/date/2027-03-01/2027-03-07.json');
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe(DATA_MESSAGES.fitbitRequestFailed);
  });

  it("a day without any record → 'Could not find any data!'", async () => {
    const { pid, user } = await linked();
    let d = '2027-03-01';
    while (fitbitDay(user, d).sleep !== null) d = day(d, -1);
    const res = await data(a.as.Viewer, pid, `/sleep/date/${d}/${d}.json`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      message: DATA_MESSAGES.noData,
      reason: 'NotFound',
      displayToUser: true,
    });
  });

  it('the overview: 14 local days per subject ending on local today, and the hand-computed 7-vs-7', async () => {
    const { pid, user } = await linked();
    const tz = fitbitUserTimezone(user).tz;
    const today = localToday(tz);
    // A day the tracker spent in a drawer, in the last 7: Fitbit reports 0 steps for it.
    await sim().post('wear', { userId: user, from: day(today, -2), days: 1, minutesPerDay: 0 });
    const res = await data(a.as.Viewer, pid, '/overview');
    expect(res.statusCode).toBe(200);
    const { series, summary } = res.json().overview;
    const dates = Array.from({ length: 14 }, (_, i) => day(today, i - 13));
    expect(series.steps.map((s: { date: string }) => s.date)).toEqual(dates);
    const g = dates.map((d) => fitbitDay(user, d));
    // One rule for no data and 0 (issue #26): a day Fitbit reports as 0 is 0, as the tables and exports show it.
    expect(series.steps.map((s: { value: number | null }) => s.value)).toEqual(g.map((x) => x.steps));
    expect(series.sleepDuration.map((s: { value: number | null }) => s.value)).toEqual(
      g.map((x) => x.sleep?.minutesAsleep ?? null),
    );
    expect(series.weight.map((s: { value: number | null }) => s.value)).toEqual(g.map((x) => x.weightKg));
    // By hand: the days with a value (a 0 counts), their sum and the average to 2 decimals.
    const hand = (xs: Array<number | null>) => {
      const kept = xs.filter((v): v is number => v !== null);
      const total = kept.reduce((s, v) => s + v, 0);
      return {
        days: kept.length,
        total: kept.length ? total : null,
        average: kept.length ? Math.round((total / kept.length) * 100) / 100 : null,
      };
    };
    expect(summary.subjects.steps.last7).toMatchObject({
      from: dates[7],
      to: today,
      ...hand(g.slice(7).map((x) => x.steps)),
    });
    expect(summary.subjects.steps.previous7).toMatchObject({
      from: dates[0],
      to: dates[6],
      ...hand(g.slice(0, 7).map((x) => x.steps)),
    });
    expect(summary.subjects.restingHeartRate.last7).toMatchObject(
      hand(g.slice(7).map((x) => x.restingHeartRate ?? null)),
    );
    // The drawer day is 0 in the series and counted in the 7-day average.
    expect(g[11]!.steps).toBe(0);
    expect(series.steps[11].value).toBe(0);
    expect(summary.subjects.steps.last7.days).toBe(7);
    expect(summary.timeZone).toBe(tz);
  });

  it('the local summary is computed on the server, stored, audited and read back; a sent summary is ignored', async () => {
    const { pid, email } = await linked();
    expect((await a.as.Viewer.get(`/api/fitbitDataLocalDB/${pid}`)).json()).toEqual({ summary: null });
    const posted = await a.as.Viewer.post(`/api/fitbitDataLocalDB/${pid}`, {
      email,
      data: { subjects: { steps: { last7: { total: 1e9 } } } },
    });
    expect(posted.statusCode).toBe(200);
    const { summary } = posted.json();
    expect(summary.subjects.steps.last7.total).not.toBe(1e9);
    const overview = (await data(a.as.Viewer, pid, '/overview')).json().overview.summary;
    expect(summary.subjects).toEqual(overview.subjects);
    expect((await a.as.Admin.get(`/api/fitbitDataLocalDB/${pid}`)).json()).toEqual({ summary });
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id'])
      .where('action', '=', 'fitbit.summary.saved')
      .where('entity_id', '=', String(pid))
      .execute();
    expect(audit).toEqual([{ action: 'fitbit.summary.saved', entity_id: String(pid) }]);
    expect((await a.as.Admin.get(`/api/fitbitDataLocalDB/${otherTeam}`)).statusCode).toBe(404);
  });

  it('raw answers: Sys_Admin only, exactly as received with the rate-limit headers', async () => {
    const { pid, user } = await linked();
    const q = `resource=${enc('/activities/steps/date/2027-03-01/2027-03-02.json')}`;
    for (const role of ['Viewer', 'User', 'Admin'] as const)
      expect((await a.as[role].get(`/api/participantRaw/${pid}/fitbit?${q}`)).statusCode).toBe(403);
    const res = await a.as.Sys_Admin.get(`/api/participantRaw/${pid}/fitbit?${q}`);
    expect(res.statusCode).toBe(200);
    const raw = res.json();
    const path = '/activities/steps/date/2027-03-01/2027-03-02.json';
    expect(raw).toMatchObject({
      provider: 'fitbit',
      request: `/1/user/-${path}`,
      status: 200,
      timeZone: fitbitUserTimezone(user).tz,
    });
    // The body is Fitbit's own: what the same call answers straight from the simulator.
    const device = await t.ctx.db
      .selectFrom('participant_devices')
      .select('id')
      .where('participant_id', '=', pid)
      .executeTakeFirstOrThrow();
    const token = (await loadTokens(t.ctx, device.id))!.accessToken;
    const direct = await fetch(`${t.ctx.config.publicUrl}/sim/fitbit/1/user/-${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(direct.status).toBe(200);
    expect(raw.body).toEqual(await direct.json());
    // …and holds the simulator's steps of each local date.
    const query = { resource: 'tracker', params: { path } };
    expect(daysIn(legacyToSeries(query, raw, raw.timeZone), 'steps')).toEqual(
      ['2027-03-01', '2027-03-02'].map((d) => ({ date: d, value: fitbitDay(user, d).steps })),
    );
    expect(raw.headers['fitbit-rate-limit-limit']).toBe('150');
    expect(Number(raw.headers['fitbit-rate-limit-remaining'])).toBeLessThan(150);
    expect(
      (await a.as.Sys_Admin.get(`/api/participantRaw/${pid}/fitbit?resource=https%3A%2F%2Fx.example`))
        .statusCode,
    ).toBe(400);
  });
});
