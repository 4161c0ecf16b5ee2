/*
 * Fitbit simulator fidelity (providers.md §1.4, §1.7): every resource path
 * the portal's allow-list forwards is served with the real shape, and a user
 * in a DST zone sees local dates and times that follow the change.
 */
import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitbitDay } from './fitbit-daily.js';
import { fitbitUserId, fitbitUserTimezone } from './fitbit-data.js';
import { fitbitIntradayDataset } from './fitbit-intraday.js';
import { fitbitSimulator } from './fitbit-simulator.js';

const CLIENT = { clientId: 'FIDELITY', clientSecret: 'sec', redirectUris: ['http://127.0.0.1:9/cb'] };
const SCOPE =
  'activity heartrate sleep weight oxygen_saturation cardio_fitness nutrition respiratory_rate temperature profile settings';

/** A consent state whose simulated person lives in New York (the account is derived from the state). */
function stateIn(tz: string) {
  for (let i = 0; ; i++) if (fitbitUserTimezone(fitbitUserId(`FIDELITY:p${i}`)).tz === tz) return `p${i}`;
}

describe('Fitbit simulator fidelity', () => {
  let app: FastifyInstance;
  let base: string;
  let token = '';
  const state = stateIn('America/New_York');
  const user = fitbitUserId(`FIDELITY:${state}`);

  beforeAll(async () => {
    app = Fastify();
    await app.register(fitbitSimulator, { control: true, clients: [CLIENT] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const form = (b: Record<string, string>) => new URLSearchParams(b).toString();
    const q = {
      client_id: CLIENT.clientId,
      redirect_uri: CLIENT.redirectUris[0]!,
      scope: SCOPE,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const page = await (
      await fetch(`${base}/oauth2/authorize?${form({ ...q, response_type: 'code' })}`)
    ).text();
    const account = page.match(/name="account" value="([A-Z0-9]{6})"/)![1]!;
    expect(account).toBe(user);
    const back = await fetch(`${base}/oauth2/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ ...q, account, decision: 'allow' }),
      redirect: 'manual',
    });
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!;
    const res = await fetch(`${base}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('FIDELITY:sec').toString('base64')}`,
      },
      body: form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: q.redirect_uri,
        code_verifier: verifier,
      }),
    });
    token = ((await res.json()) as { access_token: string }).access_token;
  });
  afterAll(() => app.close());

  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    // biome-ignore lint/suspicious/noExplicitAny: provider JSON read by each assertion its own way
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const control = (path: string, body: object) =>
    fetch(`${base}/_control/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('serves every allow-listed kind of path with its shape', async () => {
    const ok = async (path: string) => {
      const r = await get(path);
      expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(200);
      return r.body;
    };
    expect((await ok('/1/user/-/activities/date/2026-03-02.json')).summary).toMatchObject({
      steps: fitbitDay(user, '2026-03-02').steps,
      caloriesBMR: fitbitDay(user, '2026-03-02').caloriesBMR,
    });
    for (const r of ['elevation', 'caloriesBMR', 'minutesSedentary'])
      expect(
        (await ok(`/1/user/-/activities/tracker/${r}/date/2026-03-01/2026-03-07.json`))[
          `activities-tracker-${r}`
        ],
      ).toHaveLength(7);
    expect((await get('/1/user/-/activities/activityCalories/date/2026-01-01/2026-03-01.json')).status).toBe(
      400,
    );
    const list = await ok('/1/user/-/activities/list.json?beforeDate=2026-03-20&sort=desc&limit=5&offset=0');
    expect(list.activities.length).toBeGreaterThan(0);
    expect(list.activities[0].startTime).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/,
    );
    expect(list.pagination).toMatchObject({ beforeDate: '2026-03-20', limit: 5, offset: 0, sort: 'desc' });
    expect((await ok('/1/user/-/body/log/fat/date/2026-03-01/2026-03-30.json')).fat[0]).toMatchObject({
      source: 'Aria',
      fat: expect.any(Number),
    });
    expect((await get('/1/user/-/body/log/fat/date/2026-03-01/2026-03-31.json')).status).toBe(400);
    expect(
      (await ok('/1/user/-/foods/log/caloriesIn/date/2026-03-01/2026-03-03.json'))['foods-log-caloriesIn'][0],
    ).toEqual({
      dateTime: '2026-03-01',
      value: String(fitbitDay(user, '2026-03-01').caloriesIn),
    });
    expect(
      (await ok('/1/user/-/foods/log/water/date/2026-03-01/2026-03-03.json'))['foods-log-water'],
    ).toHaveLength(3);
    const hrv = await ok('/1/user/-/hrv/date/2026-03-01/2026-03-30.json');
    expect(hrv.hrv[0].value).toEqual({ dailyRmssd: expect.any(Number), deepRmssd: expect.any(Number) });
    expect((await get('/1/user/-/hrv/date/2026-03-01/2026-03-31.json')).status).toBe(400);
    // HRV intraday: each night's 5-minute samples at the local wall clock, under its wake-up date.
    const nights = await ok('/1/user/-/hrv/date/2026-03-01/2026-03-30/all.json');
    const slept = hrv.hrv.map((e: { dateTime: string }) => e.dateTime);
    expect(nights.hrv.map((e: { dateTime: string }) => e.dateTime)).toEqual(slept);
    const night = nights.hrv[0];
    expect(night.minutes[0]).toEqual({
      minute: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d[05]:00\.000$/),
      value: {
        rmssd: expect.any(Number),
        coverage: expect.any(Number),
        hf: expect.any(Number),
        lf: expect.any(Number),
      },
    });
    const sleepStart = fitbitDay(user, night.dateTime).sleep!.start;
    expect(night.minutes[0].minute >= sleepStart).toBe(true);
    expect(night.minutes.length).toBeGreaterThan(50);
    const one = await ok(`/1/user/-/hrv/date/${night.dateTime}/all.json`);
    expect(one.hrv).toEqual([night]);
    expect((await get('/1/user/-/hrv/date/2026-03-01/2026-03-31/all.json')).status).toBe(400);
    const br = await ok('/1/user/-/br/date/2026-03-01/2026-03-07.json');
    expect(br.br[0].value.breathingRate).toBeGreaterThan(10);
    const skin = await ok('/1/user/-/temp/skin/date/2026-03-01/2026-03-30.json');
    const worn = Array.from({ length: 30 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`).filter(
      (d) => fitbitDay(user, d).skinTempRelative !== null,
    );
    expect(skin.tempSkin).toEqual(
      worn.map((d) => ({
        dateTime: d,
        value: { nightlyRelative: fitbitDay(user, d).skinTempRelative },
        logType: 'dedicated_temp_sensor',
      })),
    );
    expect((await get('/1/user/-/temp/skin/date/2026-03-01/2026-03-31.json')).status).toBe(400);
  });

  it('heart at 1sec: irregular samples 1–15 s apart, a "second" dataset; 5min levels average; time windows', async () => {
    const day = '2026-03-02';
    const sec = (await get(`/1/user/-/activities/heart/date/${day}/1d/1sec.json`)).body[
      'activities-heart-intraday'
    ];
    expect(sec).toMatchObject({ datasetType: 'second', datasetInterval: 1 });
    expect(sec).toEqual(fitbitIntradayDataset(user, day, 'heart', '1sec'));
    const toS = (t: string) => t.split(':').reduce((n, x) => n * 60 + Number(x), 0);
    const gaps = sec.dataset
      .slice(1)
      .map((e: { time: string }, i: number) => toS(e.time) - toS(sec.dataset[i].time));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1);
    expect(gaps.filter((g: number) => g <= 15).length / gaps.length).toBeGreaterThan(0.99);
    expect(sec.dataset.length).toBeGreaterThan(5_000);
    const five = (await get(`/1/user/-/activities/heart/date/${day}/1d/5min.json`)).body[
      'activities-heart-intraday'
    ];
    expect(five.datasetInterval).toBe(5);
    expect(five.dataset.length).toBeLessThanOrEqual(288);
    const windowed = (await get(`/1/user/-/activities/steps/date/${day}/1d/1min/time/08:00/08:29.json`)).body;
    expect(windowed['activities-steps-intraday'].dataset.map((e: { time: string }) => e.time)).toEqual(
      Array.from({ length: 30 }, (_, i) => `08:${String(i).padStart(2, '0')}:00`),
    );
  });

  it('a New York user on the Sunday clocks go forward: no 02:xx minutes, the offset changes, sleep ends an hour later on the clock', async () => {
    const day = '2026-03-08';
    const steps = (await get(`/1/user/-/activities/steps/date/${day}/1d/1min.json`)).body[
      'activities-steps-intraday'
    ];
    expect(steps.dataset).toHaveLength(1380);
    expect(steps.dataset.some((e: { time: string }) => e.time.startsWith('02:'))).toBe(false);
    expect(steps.dataset.reduce((n: number, e: { value: number }) => n + e.value, 0)).toBe(
      fitbitDay(user, day).steps,
    );
    // The day after has every minute.
    expect(
      (await get('/1/user/-/activities/steps/date/2026-03-09/1d/1min.json')).body['activities-steps-intraday']
        .dataset,
    ).toHaveLength(1440);

    await control('clock', { now: '2026-03-08T06:30:00Z' }); // 01:30 EST
    const before = (await get('/1/user/-/profile.json')).body.user;
    expect(before).toMatchObject({ timezone: 'America/New_York', offsetFromUTCMillis: -5 * 3_600_000 });
    await control('clock', { now: '2026-03-08T07:30:00Z' }); // 03:30 EDT
    expect((await get('/1/user/-/profile.json')).body.user.offsetFromUTCMillis).toBe(-4 * 3_600_000);
    // "today" is the user's local date: 2026-03-08 in New York while it is still the 8th there.
    await control('clock', { now: '2026-03-09T03:30:00Z' }); // 23:30 EDT on the 8th
    expect(
      (await get('/1/user/-/activities/steps/date/today/1d.json')).body['activities-steps'][0].dateTime,
    ).toBe(day);

    const sleep = (await get(`/1.2/user/-/sleep/date/${day}/${day}.json`)).body.sleep;
    const s = fitbitDay(user, day).sleep;
    if (s) {
      const inBed = s.minutesAsleep + s.wake;
      const start = Date.parse(`${s.start}Z`);
      // Wall-clock end = start + time in bed + the skipped hour.
      expect(sleep[0].endTime).toBe(new Date(start + (inBed + 60) * 60_000).toISOString().slice(0, 23));
      expect(sleep[0].duration).toBe(inBed * 60_000);
    }
    await control('clock', { reset: true });
  });
});
