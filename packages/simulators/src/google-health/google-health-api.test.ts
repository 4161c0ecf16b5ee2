/*
 * Conformance of the Google Health simulator's REST surface with
 * google-health-api.md §3–§4, over real HTTP: list paging and filters,
 * reconcile, roll-up limits and request shapes, the error catalogue, rate
 * limits and injected failures, and the configurable open questions (§7).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fitbitDay } from '../fitbit/fitbit-daily.js';
import { api, control, gdate, type Json, link, listAll, type Sim, scopeOf, startSim } from './test-kit.js';

const enc = encodeURIComponent;
const list = (type: string, q: Record<string, string>) =>
  `/v4/users/me/dataTypes/${type}/dataPoints?${new URLSearchParams(q)}`;

describe('Google Health simulator: REST surface', { timeout: 30_000 }, () => {
  let sim: Sim;
  let token = '';
  let account = '';
  let legacy = '';

  beforeAll(async () => {
    sim = await startSim();
    const t = await link(sim, 'api-test.n.m');
    token = t.access_token;
    account = t.account;
    legacy = (await api(sim, token, '/v4/users/me/identity')).body.legacyUserId;
  });
  beforeEach(async () => {
    await control(sim, 'reset');
    sim.clock.set(new Date('2026-11-20T12:00:00Z'));
  });
  afterAll(() => sim.close());

  const expectError = (r: { status: number; body: Json }, code: number, status: string, reason?: string) => {
    expect(r.status, JSON.stringify(r.body)).toBe(code);
    expect(r.body.error.code).toBe(code);
    expect(r.body.error.status).toBe(status);
    if (reason)
      expect(r.body.error.details[0]).toMatchObject({
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason,
      });
    return r.body.error.message as string;
  };

  it('list pages newest first with opaque tokens; the pages join without gaps or repeats', async () => {
    const filter =
      'heart_rate.sample_time.civil_time >= "2026-11-10T06:00:00" AND heart_rate.sample_time.civil_time < "2026-11-10T12:00"';
    const whole = await listAll(sim, token, 'heart-rate', { filter, pageSize: '10000' });
    const paged = await listAll(sim, token, 'heart-rate', { filter, pageSize: '700' });
    expect(paged.pages).toBeGreaterThan(whole.pages);
    expect(paged.points).toEqual(whole.points);
    const times = whole.points.map((p: Json) => Date.parse(p.heartRate.sampleTime.physicalTime));
    expect(times.length).toBeGreaterThan(1440);
    const civil = whole.points.map((p: Json) => p.heartRate.sampleTime.civilTime);
    expect(civil.every((c: Json) => c.date.day === 10 && c.time.hours >= 6 && c.time.hours < 12)).toBe(true);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(new Set(times).size).toBe(times.length);
    // proto3 JSON: int64 as strings.
    expect(typeof whole.points[0].heartRate.beatsPerMinute).toBe('string');
    // The default page is 1440; more than 10000 is cut to 10000.
    const first = await api(sim, token, list('heart-rate', { filter }));
    expect(first.body.dataPoints).toHaveLength(1440);
    const big = await api(sim, token, list('heart-rate', { filter, pageSize: '50000' }));
    expect(big.body.dataPoints).toHaveLength(Math.min(10000, times.length));
  });

  it('a page token belongs to its request: changing the filter is refused', async () => {
    const filter = 'steps.interval.civil_start_time >= "2026-11-01"';
    const p1 = await api(sim, token, list('steps', { filter, pageSize: '5' }));
    expect(p1.body.nextPageToken).toBeTruthy();
    const other = await api(
      sim,
      token,
      list('steps', {
        filter: 'steps.interval.civil_start_time >= "2026-10-01"',
        pageSize: '5',
        pageToken: p1.body.nextPageToken,
      }),
    );
    expectError(other, 400, 'INVALID_ARGUMENT');
    const bad = await api(sim, token, list('steps', { filter, pageToken: 'garbage' }));
    expectError(bad, 400, 'INVALID_ARGUMENT');
  });

  it('a page can be empty and still carry a nextPageToken: read until the token is absent', async () => {
    await control(sim, 'config', { listScanDays: 1 });
    const filter =
      'weight.sample_time.civil_time >= "2026-10-01" AND weight.sample_time.civil_time < "2026-11-01"';
    const days = Array.from({ length: 31 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`);
    const weighed = days.filter((d) => fitbitDay(legacy, d).weightKg !== null);
    const r = await listAll(sim, token, 'weight', { filter });
    expect(r.points).toHaveLength(weighed.length);
    expect(r.pages).toBeGreaterThan(weighed.length);
    // The first page (2026-11-01, outside the filter) is empty with a token.
    const first = await api(sim, token, list('weight', { filter }));
    expect(first.body.dataPoints).toBeUndefined();
    expect(first.body.nextPageToken).toBeTruthy();
  });

  it('a sleep is restated: processed:false without stages right after waking, then the stages (configurable)', async () => {
    await control(sim, 'config', { sleepProcessingMinutes: 120 });
    const read = async () => {
      const r = await api(sim, token, list('sleep', { pageSize: '1' }));
      return r.body.dataPoints[0].sleep;
    };
    const latest = await read();
    const end = Date.parse(latest.interval.endTime);
    sim.clock.set(new Date(end + 30 * 60_000));
    const early = await read();
    expect(early.metadata).toEqual({ mainSleep: true });
    expect(early.stages).toBeUndefined();
    expect(early.summary.stagesSummary).toBeUndefined();
    expect(early.summary.minutesAsleep).toBe(latest.summary.minutesAsleep);
    sim.clock.set(new Date(end + 121 * 60_000));
    const later = await read();
    expect(later.metadata).toEqual({ stagesStatus: 'SUCCEEDED', processed: true, mainSleep: true });
    expect(later.stages.length).toBeGreaterThan(4);
  });

  it('sleep pages hold at most 25 sessions', async () => {
    const r = await api(sim, token, list('sleep', { pageSize: '100' }));
    expect(r.body.dataPoints).toHaveLength(25);
    expect(r.body.nextPageToken).toBeTruthy();
  });

  it('filters: civil and physical members select by the user’s wall clock or by the instant', async () => {
    const date = '2026-11-10';
    const civil = await listAll(sim, token, 'steps', {
      filter: `steps.interval.civil_start_time >= "${date}" AND steps.interval.civil_start_time < "2026-11-11"`,
    });
    const physical = await listAll(sim, token, 'steps', {
      filter: `steps.interval.start_time >= "${date}T00:00:00Z" AND steps.interval.start_time < "2026-11-11T00:00:00Z"`,
    });
    const sum = (pts: Json[]) => pts.reduce((n, p) => n + Number(p.steps.count), 0);
    expect(sum(civil.points)).toBe(fitbitDay(legacy, date).steps);
    for (const p of physical.points) expect(p.steps.interval.startTime.slice(0, 10)).toBe(date);
    for (const p of civil.points) expect(p.steps.interval.civilStartTime.date).toEqual(gdate(date));
    // Sleep accepts OR.
    const or = await api(
      sim,
      token,
      list('sleep', {
        filter:
          'sleep.interval.civil_end_time < "2026-11-02" OR sleep.interval.civil_end_time >= "2026-11-19"',
        pageSize: '25',
      }),
    );
    expect(or.status).toBe(200);
  });

  it('filter errors carry the live API’s reasons', async () => {
    const cases: Array<[string, string, string, string?]> = [
      [
        'sleep',
        'sleep.interval.start_time >= "2026-11-01T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_DATA_TYPE_MEMBER',
        "Member 'sleep.start_time' is not supported for filtering.",
      ],
      [
        'daily-resting-heart-rate',
        'daily_resting_heart_rate.interval.start_time >= "2026-11-01T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_DATA_TYPE_MEMBER',
      ],
      [
        'steps',
        'steps.interval.civil_start_time >= "2026-11-01T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_CIVIL_DATE_TIME_FORMAT',
      ],
      ['steps', 'steps.interval.startTime >= "2026-11-01T00:00:00Z"', 'INVALID_DATA_POINT_FILTER'],
      [
        'steps',
        'steps.interval.start_time >= "2026-11-01T00:00:00Z" and steps.interval.start_time < "2026-11-02T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_SYNTAX',
      ],
      ['steps', 'steps.interval.start_time >= 2026', 'INVALID_DATA_POINT_FILTER_UNEXPECTED_TOKEN'],
      ['steps', 'steps.interval.start_time >=', 'INVALID_DATA_POINT_FILTER_UNEXPECTED_END_OF_INPUT'],
      [
        'steps',
        'steps.interval.start_time = "2026-11-01T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_RESTRICTION_COMPARABLE',
      ],
      [
        'steps',
        'heart_rate.sample_time.physical_time >= "2026-11-01T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_DATA_TYPE_RESTRICTION',
      ],
      ['steps', 'steps.interval.start_time >= "2026-11-01" ', 'INVALID_FILTER_FORMAT'],
      [
        'steps',
        'steps.interval.start_time >= "2026-11-01T00:00:00Z" OR steps.interval.start_time < "2026-11-02T00:00:00Z"',
        'INVALID_DATA_POINT_FILTER_EXPRESSION_STRUCTURE',
      ],
      [
        'daily-oxygen-saturation',
        'daily_oxygen_saturation.date >= "2026-11-01T00:00:00"',
        'INVALID_DATA_POINT_FILTER_CIVIL_DATE_TIME_FORMAT',
      ],
    ];
    for (const [type, filter, reason, message] of cases) {
      const r = await api(sim, token, list(type, { filter }));
      const m = expectError(r, 400, 'INVALID_ARGUMENT', reason);
      if (message) expect(m).toBe(message);
    }
  });

  it('reconcile: merged points without dataSource, dataPointName for sleep; an unknown family is refused', async () => {
    await control(sim, 'config', { phoneSteps: true });
    const filter =
      'steps.interval.civil_start_time >= "2026-11-10" AND steps.interval.civil_start_time < "2026-11-11"';
    const raw = await listAll(sim, token, 'steps', { filter });
    const sum = (pts: Json[]) => pts.reduce((n, p) => n + Number(p.steps.count), 0);
    const steps = fitbitDay(legacy, '2026-11-10').steps;
    // Two overlapping sources in list: summing them overcounts.
    const phone = raw.points.filter((p: Json) => p.dataSource.device.formFactor === 'PHONE');
    expect(phone.length).toBeGreaterThan(0);
    expect(phone.length).toBeLessThan(raw.points.length);
    expect(sum(raw.points)).toBeGreaterThan(steps);
    const rec = await api(
      sim,
      token,
      `/v4/users/me/dataTypes/steps/dataPoints:reconcile?filter=${enc(filter)}&pageSize=10000&dataSourceFamily=${enc('users/me/dataSourceFamilies/google-wearables')}`,
    );
    expect(rec.status).toBe(200);
    expect(sum(rec.body.dataPoints)).toBe(steps);
    expect(rec.body.dataPoints[0].dataSource).toBeUndefined();
    // Roll-ups merge sources: the daily total is the tracker's.
    const d = await api(sim, token, '/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', {
      range: { start: { date: gdate('2026-11-10') }, end: { date: gdate('2026-11-11') } },
    });
    expect(Number(d.body.rollupDataPoints[0].steps.countSum)).toBe(steps);
    const sleep = await api(sim, token, '/v4/users/me/dataTypes/sleep/dataPoints:reconcile?pageSize=1');
    expect(sleep.body.dataPoints[0].dataPointName).toMatch(/^users\/\d+\/dataTypes\/sleep\/dataPoints\/\d+$/);
    const bad = await api(
      sim,
      token,
      '/v4/users/me/dataTypes/steps/dataPoints:reconcile?dataSourceFamily=users/me/dataSourceFamilies/mine',
    );
    expectError(bad, 400, 'INVALID_ARGUMENT', 'INVALID_DATA_POINT_DATA_SOURCE_FAMILY');
  });

  it('rollUp: windows in order, no value where there is no data, range limits per type, paging', async () => {
    const body = (type: string, start: string, end: string, extra: object = {}) =>
      api(sim, token, `/v4/users/me/dataTypes/${type}/dataPoints:rollUp`, {
        range: { startTime: start, endTime: end },
        windowSize: '3600s',
        ...extra,
      });
    const r = await body('steps', '2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z');
    expect(r.body.rollupDataPoints).toHaveLength(24);
    expect(r.body.rollupDataPoints[0]).toEqual({
      startTime: '2026-11-10T00:00:00Z',
      endTime: '2026-11-10T01:00:00Z',
      ...(r.body.rollupDataPoints[0].steps && { steps: r.body.rollupDataPoints[0].steps }),
    });
    expect(r.body.rollupDataPoints.some((w: Json) => !w.steps)).toBe(true);
    // heart-rate: 14 days at most; steps: 90.
    expectError(
      await body('heart-rate', '2026-10-01T00:00:00Z', '2026-10-16T00:00:00Z'),
      400,
      'INVALID_ARGUMENT',
    );
    expect((await body('steps', '2026-09-01T00:00:00Z', '2026-10-16T00:00:00Z')).status).toBe(200);
    expectError(await body('steps', '2026-07-01T00:00:00Z', '2026-10-16T00:00:00Z'), 400, 'INVALID_ARGUMENT');
    expectError(
      await body('steps', '2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z', { windowSize: '0.5s' }),
      400,
      'INVALID_ARGUMENT',
    );
    expectError(await body('steps', '2026-11-10', '2026-11-11'), 400, 'INVALID_ARGUMENT');
    expect((await body('steps', '2026-11-10T00:00:00-05:00', '2026-11-11T00:00:00-05:00')).status).toBe(200);
    // Paging over windows.
    const p1 = await body('steps', '2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z', { pageSize: 10 });
    expect(p1.body.rollupDataPoints).toHaveLength(10);
    const p2 = await body('steps', '2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z', {
      pageSize: 10,
      pageToken: p1.body.nextPageToken,
    });
    expect(p2.body.rollupDataPoints[0].startTime).toBe('2026-11-10T10:00:00Z');
    const p3 = await body('steps', '2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z', {
      pageSize: 10,
      pageToken: p2.body.nextPageToken,
    });
    expect(p3.body.rollupDataPoints).toHaveLength(4);
    expect(p3.body.nextPageToken).toBeUndefined();
    // No roll-up for sleep.
    const sleep = await body('sleep', '2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z');
    expect(expectError(sleep, 400, 'INVALID_ARGUMENT')).toBe(
      'Rollup is not supported for data type sleep, but the following actions are supported: list, reconcile',
    );
  });

  it('dailyRollUp request shape: nested dates, exclusive end, 14 days, no pageSize (as live), JSON errors', async () => {
    const call = (b: unknown) => api(sim, token, '/v4/users/me/dataTypes/steps/dataPoints:dailyRollUp', b);
    const ok = await call({
      range: { start: { date: gdate('2026-11-01') }, end: { date: gdate('2026-11-15') } },
    });
    expect(ok.body.rollupDataPoints).toHaveLength(14);
    expect(
      expectError(
        await call({
          range: { start: { year: 2026, month: 11, day: 1 }, end: { date: gdate('2026-11-02') } },
        }),
        400,
        'INVALID_ARGUMENT',
      ),
    ).toBe('Invalid JSON payload received. Unknown name "year" at \'range.start\': Cannot find field.');
    expectError(
      await call({ range: { start: { date: gdate('2026-11-01') }, end: { date: gdate('2026-11-16') } } }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(
      expectError(
        await call({
          range: { start: { date: gdate('2026-11-01') }, end: { date: gdate('2026-11-02') } },
          pageSize: 10,
        }),
        400,
        'INVALID_ARGUMENT',
      ),
    ).toBe('Invalid argument in request');
    const octal = await call(
      '{"range":{"start":{"date":{"year":2026,"month":08,"day":1}},"end":{"date":{"year":2026,"month":8,"day":2}}}}',
    );
    expect(expectError(octal, 400, 'INVALID_ARGUMENT')).toMatch(/^Invalid JSON payload received\./);
    // Windows of several days.
    const weeks = await call({
      range: { start: { date: gdate('2026-11-01') }, end: { date: gdate('2026-11-15') } },
      windowSizeDays: 7,
    });
    expect(weeks.body.rollupDataPoints.map((p: Json) => p.civilStartTime.date.day)).toEqual([1, 8]);
    const week = Array.from({ length: 7 }, (_, i) => fitbitDay(legacy, `2026-11-0${i + 1}`).steps).reduce(
      (a, b) => a + b,
      0,
    );
    expect(Number(weeks.body.rollupDataPoints[0].steps.countSum)).toBe(week);
    // The proto's limits and pageSize, when configured so.
    await control(sim, 'config', { dailyRollUpMaxDays: 'proto', dailyRollUpAcceptsPageSize: true });
    expect(
      (
        await call({
          range: { start: { date: gdate('2026-09-01') }, end: { date: gdate('2026-11-01') } },
          pageSize: 10,
        })
      ).status,
    ).toBe(200);
    // Daily types: the personal range, not the daily value.
    const rhr = await api(
      sim,
      token,
      '/v4/users/me/dataTypes/daily-resting-heart-rate/dataPoints:dailyRollUp',
      {
        range: { start: { date: gdate('2026-11-10') }, end: { date: gdate('2026-11-11') } },
      },
    );
    expect(Object.keys(rhr.body.rollupDataPoints[0].dailyRestingHeartRate)).toEqual([
      'restingHeartRatePersonalRange',
    ]);
  });

  it('data types: unknown, malformed, list refused for total-calories and floors (configurable)', async () => {
    expectError(
      await api(sim, token, list('nope', {})),
      400,
      'INVALID_ARGUMENT',
      'INVALID_PARENT_DATA_TYPE_COLLECTION',
    );
    expectError(
      await api(sim, token, list('Heart_Rate', {})),
      400,
      'INVALID_ARGUMENT',
      'INVALID_PARENT_DATA_TYPE_COLLECTION_FORMAT',
    );
    expect(expectError(await api(sim, token, list('total-calories', {})), 400, 'INVALID_ARGUMENT')).toBe(
      'List is not supported for data type total-calories, but the following actions are supported: rollup, dailyRollup',
    );
    expectError(await api(sim, token, list('floors', {})), 400, 'INVALID_ARGUMENT');
    await control(sim, 'config', { floorsList: true });
    expect((await api(sim, token, list('floors', { pageSize: '5' }))).status).toBe(200);
    // activity-level roll-ups follow the proto by default; off, they are refused.
    await control(sim, 'config', { activityLevelRollUps: false });
    const al = await api(sim, token, '/v4/users/me/dataTypes/activity-level/dataPoints:dailyRollUp', {
      range: { start: { date: gdate('2026-11-10') }, end: { date: gdate('2026-11-11') } },
    });
    expectError(al, 400, 'INVALID_ARGUMENT');
  });

  it('routing before authentication: unknown paths 404 even without a token; known paths 401 without one', async () => {
    const nf = await fetch(`${sim.base}/v4/users/me/nothing`);
    expect(nf.status).toBe(404);
    expect(((await nf.json()) as Json).error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    expect((await fetch(`${sim.base}/v4/users/me/dataTypes/steps/dataPoints`)).status).toBe(401);
    // Another user's data: 403.
    expectError(await api(sim, token, '/v4/users/123/settings'), 403, 'PERMISSION_DENIED');
    expect((await api(sim, token, `/v4/users/${account}/settings`)).status).toBe(200);
  });

  it('rate limit: 429 RESOURCE_EXHAUSTED past the per-user minute quota, without Retry-After (configurable)', async () => {
    await control(sim, 'config', { requestsPerUserPerMinute: 3 });
    for (let i = 0; i < 3; i++) expect((await api(sim, token, '/v4/users/me/identity')).status).toBe(200);
    const r = await api(sim, token, '/v4/users/me/identity');
    expectError(r, 429, 'RESOURCE_EXHAUSTED', 'RATE_LIMIT_EXCEEDED');
    expect(r.headers.get('retry-after')).toBeNull();
    await control(sim, 'config', { retryAfterOn429: true });
    const r2 = await api(sim, token, '/v4/users/me/identity');
    expect(Number(r2.headers.get('retry-after'))).toBeGreaterThan(0);
    // The next minute is a new window.
    sim.clock.advance(60_000);
    expect((await api(sim, token, '/v4/users/me/identity')).status).toBe(200);
    await control(sim, 'exhaust-rate-limit', { userId: account });
    expect((await api(sim, token, '/v4/users/me/identity')).status).toBe(429);
    await control(sim, 'reset-rate-limit');
    expect((await api(sim, token, '/v4/users/me/identity')).status).toBe(200);
  });

  it('injected failures: 429 with Retry-After when asked, 503 UNAVAILABLE, then normal again; calls are counted', async () => {
    await control(sim, 'fail-next', { count: 1, status: 429, retryAfterSeconds: 30 });
    const r = await api(sim, token, '/v4/users/me/identity');
    expectError(r, 429, 'RESOURCE_EXHAUSTED');
    expect(r.headers.get('retry-after')).toBe('30');
    await control(sim, 'fail-next', { count: 2, status: 503 });
    expectError(await api(sim, token, '/v4/users/me/identity'), 503, 'UNAVAILABLE');
    expectError(await api(sim, token, '/v4/users/me/identity'), 503, 'UNAVAILABLE');
    expect((await api(sim, token, '/v4/users/me/identity')).status).toBe(200);
    const calls = (await (await fetch(`${sim.base}/_control/calls?userId=${account}`)).json()) as Json;
    expect(calls.calls).toBe(4);
  });

  it('a Google account not linked to a Fitbit account: 400 ACCOUNT_NOT_LINKED on every data call', async () => {
    await control(sim, 'user', { userId: account, notLinked: true });
    const r = await api(sim, token, list('steps', {}));
    expect(expectError(r, 400, 'INVALID_ARGUMENT', 'ACCOUNT_NOT_LINKED')).toBe(
      'The Google account is not linked to a Fitbit account.',
    );
    await control(sim, 'reset');
    expect((await api(sim, token, '/v4/users/me/identity')).status).toBe(200);
  });

  it('profile and settings: the shapes of §3.7; settings need the settings scope', async () => {
    const profile = await api(sim, token, '/v4/users/me/profile');
    expect(profile.body).toMatchObject({
      name: 'users/me/profile',
      membershipStartDate: { year: 2023, month: 1, day: 10 },
    });
    expect(Number.isInteger(profile.body.age)).toBe(true);
    const t = await link(sim, 'api-noscope.n.m', [scopeOf('activity_and_fitness')]);
    expectError(
      await api(sim, t.access_token, '/v4/users/me/settings'),
      403,
      'PERMISSION_DENIED',
      'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
    );
    expectError(await api(sim, t.access_token, '/v4/users/me/pairedDevices'), 403, 'PERMISSION_DENIED');
    // Identity accepts any read scope.
    expect((await api(sim, t.access_token, '/v4/users/me/identity')).status).toBe(200);
  });
});
