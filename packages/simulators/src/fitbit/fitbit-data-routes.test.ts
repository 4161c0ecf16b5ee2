/* The Fitbit data endpoints against providers.md §1.7: paths, shapes, value types, maximum ranges. */
import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../test-kit.js';
import { fitbitSimulator } from './fitbit-simulator.js';

const CLIENT = { clientId: 'DATAAPP', clientSecret: 'sec', redirectUris: ['http://127.0.0.1:9/cb'] };

describe('Fitbit data endpoints', () => {
  let app: FastifyInstance;
  let base: string;
  let token = '';
  let narrowToken = '';

  async function authorize(scope: string) {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const form = (b: Record<string, string>) => new URLSearchParams(b).toString();
    const page = await (
      await http(
        `${base}/oauth2/authorize?${form({ client_id: 'DATAAPP', response_type: 'code', redirect_uri: CLIENT.redirectUris[0]!, scope, state: scope, code_challenge: challenge, code_challenge_method: 'S256' })}`,
      )
    ).text();
    const account = page.match(/name="account" value="([A-Z0-9]{6})"/)![1]!;
    const back = await http(`${base}/oauth2/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({
        client_id: 'DATAAPP',
        redirect_uri: CLIENT.redirectUris[0]!,
        scope,
        state: scope,
        account,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        decision: 'allow',
      }),
      redirect: 'manual',
    });
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!;
    const res = await http(`${base}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('DATAAPP:sec').toString('base64')}`,
      },
      body: form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: CLIENT.redirectUris[0]!,
        code_verifier: verifier,
      }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  }

  beforeAll(async () => {
    app = Fastify();
    await app.register(fitbitSimulator, {
      control: true,
      prefix: '/sim/fitbit',
      clients: [CLIENT],
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/sim/fitbit`;
    token = await authorize('activity heartrate sleep weight oxygen_saturation cardio_fitness nutrition');
    narrowToken = await authorize('activity');
  });
  afterAll(() => app.close());

  const get = (path: string, t = token) =>
    http(`${base}${path}`, { headers: { authorization: `Bearer ${t}` } });

  it('activity time series: one entry a day, values as strings, periods and ranges', async () => {
    const body = await (await get('/1/user/-/activities/steps/date/2026-03-01/2026-03-07.json')).json();
    expect(body['activities-steps']).toHaveLength(7);
    expect(body['activities-steps'][0]).toEqual({
      dateTime: '2026-03-01',
      value: expect.stringMatching(/^\d+$/),
    });
    const week = await (await get('/1/user/-/activities/distance/date/2026-03-07/7d.json')).json();
    expect(week['activities-distance'].map((d: { dateTime: string }) => d.dateTime)).toEqual(
      body['activities-steps'].map((d: { dateTime: string }) => d.dateTime),
    );
    const tracker = await (
      await get('/1/user/-/activities/tracker/minutesVeryActive/date/2026-03-01/1d.json')
    ).json();
    expect(tracker['activities-tracker-minutesVeryActive']).toHaveLength(1);
    const tooLong = await get('/1/user/-/activities/steps/date/2020-01-01/2026-01-01.json');
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).errors[0].errorType).toBe('request');
    const badDate = await get('/1/user/-/activities/steps/date/2026-13-01/7d.json');
    expect(badDate.status).toBe(400);
    expect((await badDate.json()).errors[0]).toMatchObject({ errorType: 'validation', fieldName: 'date' });
    expect((await get('/1/user/-/activities/heartbeat/date/2026-03-01/7d.json')).status).toBe(400);
  });

  it('intraday steps: 1440 minutes that add up to the day, at most 24 hours', async () => {
    const body = await (await get('/1/user/-/activities/steps/date/2026-03-02/1d/1min.json')).json();
    const data = body['activities-steps-intraday'];
    expect(data).toMatchObject({ datasetInterval: 1, datasetType: 'minute' });
    expect(data.dataset).toHaveLength(1440);
    expect(data.dataset[0]).toEqual({ time: '00:00:00', value: 0 });
    const total = data.dataset.reduce((n: number, d: { value: number }) => n + d.value, 0);
    expect(String(total)).toBe(body['activities-steps'][0].value);
    expect((await get('/1/user/-/activities/steps/date/2026-03-02/7d/1min.json')).status).toBe(400);
  });

  it('heart: resting heart rate per day (absent on days not worn), intraday, 1-year max', async () => {
    const body = await (await get('/1/user/-/activities/heart/date/2026-01-01/2026-03-31.json')).json();
    const days = body['activities-heart'];
    expect(days).toHaveLength(90);
    const worn = days.filter(
      (d: { value: { restingHeartRate?: number } }) => d.value.restingHeartRate !== undefined,
    );
    expect(worn.length).toBeGreaterThan(60);
    expect(worn.length).toBeLessThan(90); // some days not worn
    for (const d of worn) expect(d.value.restingHeartRate).toBeGreaterThanOrEqual(45);
    expect((await get('/1/user/-/activities/heart/date/2024-01-01/2026-01-01.json')).status).toBe(400);
    const intraday = await (await get('/1/user/-/activities/heart/date/2026-03-02/1d/1min.json')).json();
    expect(intraday['activities-heart-intraday'].datasetType).toBe('minute');
  });

  it('sleep v1.2 with stages and local times, weight logs, SpO2, VO2 max, foods; their maximum ranges', async () => {
    const sleep = await (await get('/1.2/user/-/sleep/date/2026-03-01/2026-03-10.json')).json();
    expect(sleep.sleep.length).toBeGreaterThan(5);
    const s = sleep.sleep[0];
    expect(s).toMatchObject({ type: 'stages', isMainSleep: true, logType: 'auto_detected' });
    expect(s.startTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(s.timeInBed).toBe(s.minutesAsleep + s.minutesAwake);
    expect(
      s.levels.summary.deep.minutes + s.levels.summary.light.minutes + s.levels.summary.rem.minutes,
    ).toBe(s.minutesAsleep);
    expect((await get('/1.2/user/-/sleep/date/2025-01-01/2026-01-01.json')).status).toBe(400);
    const weight = await (await get('/1/user/-/body/log/weight/date/2026-03-01/2026-03-31.json')).json();
    expect(weight.weight[0]).toMatchObject({ source: 'Aria', time: '07:38:14', weight: expect.any(Number) });
    expect((await get('/1/user/-/body/log/weight/date/2026-01-01/2026-03-31.json')).status).toBe(400);
    const series = await (await get('/1/user/-/body/weight/date/2026-03-01/7d.json')).json();
    expect(series['body-weight'][0].value).toMatch(/^\d+(\.\d+)?$/);
    // The range form of the series: weight 31 days at most; the period form: any documented period.
    expect((await get('/1/user/-/body/weight/date/2026-01-01/2026-03-31.json')).status).toBe(400);
    expect((await get('/1/user/-/body/weight/date/2026-03-31/2y.json')).status).toBe(400);
    const spo2 = await (await get('/1/user/-/spo2/date/2026-03-01/2026-03-07.json')).json();
    expect(Array.isArray(spo2)).toBe(true);
    expect(spo2[0].value).toEqual({
      avg: expect.any(Number),
      min: expect.any(Number),
      max: expect.any(Number),
    });
    const vo2 = await (await get('/1/user/-/cardioscore/date/2026-03-01/2026-03-07.json')).json();
    expect(vo2.cardioScore[0].value.vo2Max).toMatch(/^\d+-\d+$/);
    expect((await get('/1/user/-/cardioscore/date/2026-01-01/2026-03-01.json')).status).toBe(400);
    const foods = await (await get('/1/user/-/foods/log/date/2026-03-02.json')).json();
    expect(foods).toMatchObject({ goals: { calories: 2100 }, summary: { water: expect.any(Number) } });
  });

  // Builds about 2,000 days of body series (two years, seven periods, 'max' = 1,095 days): 1–3 s
  // alone, over the unit layer's 5 s beside the integration files and the journeys on 2 cores.
  it(
    "body time series by period (Fitbit's Get Body Time Series by Date): the days ending at the date, the logs' values",
    {
      timeout: 30_000,
    },
    async () => {
      const year = (await (await get('/1/user/-/body/weight/date/2026-03-31/1y.json')).json())['body-weight'];
      expect(year).toHaveLength(365);
      expect(year[0].dateTime).toBe('2025-04-01');
      expect(year.at(-1).dateTime).toBe('2026-03-31');
      const leap = await (await get('/1/user/-/body/bmi/date/2024-02-29/1y.json')).json();
      expect(leap['body-bmi'][0].dateTime).toBe('2023-03-01');
      for (const [period, first] of [
        ['1d', '2026-03-31'],
        ['7d', '2026-03-25'],
        ['1w', '2026-03-25'],
        ['30d', '2026-03-02'],
        ['1m', '2026-03-01'],
        ['3m', '2026-01-01'],
        ['6m', '2025-10-01'],
      ]) {
        const b = (await (await get(`/1/user/-/body/fat/date/2026-03-31/${period}.json`)).json())['body-fat'];
        expect(b[0].dateTime, period).toBe(first);
      }
      expect(
        (await (await get('/1/user/-/body/weight/date/2026-03-31/max.json')).json())['body-weight'],
      ).toHaveLength(1095);
      // Per local date the series is the log's weight (a day without a weighing "0").
      const logs = new Map<string, number>();
      for (const w of (await (await get('/1/user/-/body/log/weight/date/2026-03-01/2026-03-31.json')).json())
        .weight)
        logs.set(w.date, w.weight);
      expect(logs.size).toBeGreaterThan(5);
      for (const d of year.filter((x: { dateTime: string }) => x.dateTime >= '2026-03-01'))
        expect(d.value, d.dateTime).toBe(String(logs.get(d.dateTime) ?? 0));
    },
  );

  it('sleep list: one of beforeDate/afterDate, limit at most 100, sorted, paginated shape', async () => {
    const before = await (
      await get('/1.2/user/-/sleep/list.json?beforeDate=2026-03-20&limit=5&offset=0')
    ).json();
    expect(before.sleep).toHaveLength(5);
    expect(before.pagination).toMatchObject({ beforeDate: '2026-03-20', limit: 5, offset: 0, sort: 'desc' });
    const dates = before.sleep.map((x: { dateOfSleep: string }) => x.dateOfSleep);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(dates.every((d: string) => d < '2026-03-20')).toBe(true);
    const after = await (await get('/1.2/user/-/sleep/list.json?afterDate=2026-03-01&limit=3')).json();
    expect(after.pagination.sort).toBe('asc');
    expect((await get('/1.2/user/-/sleep/list.json?limit=5')).status).toBe(400);
    expect((await get('/1.2/user/-/sleep/list.json?beforeDate=2026-03-20&limit=101')).status).toBe(400);
    expect((await get('/1.2/user/-/sleep/list.json?beforeDate=2026-03-20&limit=5&offset=10')).status).toBe(
      400,
    );
  });

  it('each endpoint needs its scope (403 insufficient_scope)', async () => {
    for (const path of [
      '/1.2/user/-/sleep/date/2026-03-01.json',
      '/1/user/-/activities/heart/date/2026-03-01/1d.json',
      '/1/user/-/body/log/weight/date/2026-03-01.json',
    ]) {
      const res = await get(path, narrowToken);
      expect(res.status, path).toBe(403);
      expect((await res.json()).errors[0].errorType).toBe('insufficient_scope');
    }
    expect((await get('/1/user/-/activities/steps/date/2026-03-01/1d.json', narrowToken)).status).toBe(200);
  });
});
