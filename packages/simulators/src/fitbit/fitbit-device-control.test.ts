/*
 * The tracker's control routes on the legacy Fitbit simulator (decision
 * 032): wear for coming days, battery, sync stop, and what the data and
 * devices endpoints answer after them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { addDays, instantOfLocal, wallClockMs } from '@trialwear/zone';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, type Json } from '../test-kit.js';
import { fitbitUserTimezone } from './fitbit-data.js';
import { resetFitbitDeviceState } from './fitbit-device-state.js';
import { fitbitSimulator } from './fitbit-simulator.js';
import { fitbitWearMinutes } from './fitbit-wear.js';

const CLIENT = { clientId: 'WEARAPP', clientSecret: 'sec', redirectUris: ['http://127.0.0.1:9/cb'] };
const SCOPE = 'activity heartrate sleep settings oxygen_saturation';

describe('Fitbit simulator: wear, battery and sync stop through the control API', { timeout: 60_000 }, () => {
  let app: FastifyInstance;
  let base: string;
  let token = '';
  let userId = '';

  beforeAll(async () => {
    app = Fastify();
    await app.register(fitbitSimulator, { control: true, prefix: '/sim/fitbit', clients: [CLIENT] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/sim/fitbit`;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const form = (b: Record<string, string>) => new URLSearchParams(b).toString();
    const q = {
      client_id: CLIENT.clientId,
      response_type: 'code',
      redirect_uri: CLIENT.redirectUris[0]!,
      scope: SCOPE,
      state: 'wear-person',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const page = await (await http(`${base}/oauth2/authorize?${form(q)}`)).text();
    const account = page.match(/name="account" value="([A-Z0-9]{6})"/)![1]!;
    const back = await http(`${base}/oauth2/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ ...q, account, decision: 'allow' }),
      redirect: 'manual',
    });
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!;
    const res = await http(`${base}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64')}`,
      },
      body: form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: CLIENT.redirectUris[0]!,
        code_verifier: verifier,
      }),
    });
    const t = await res.json();
    token = t.access_token;
    userId = t.user_id;
  });
  afterAll(() => app.close());
  afterEach(async () => {
    await control('reset');
  });

  const get = async (path: string): Promise<Json> => {
    const r = await http(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(r.status, path).toBe(200);
    return r.json();
  };
  const control = async (path: string, body: object = {}) => {
    const r = await http(`${base}/_control/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as Json };
  };
  const heartMinutes = async (date: string) =>
    (await get(`/1/user/-/activities/heart/date/${date}/1d/1min.json`))['activities-heart-intraday'].dataset;
  const tracker = async () => (await get('/1/user/-/devices.json')).find((d: Json) => d.type === 'TRACKER');

  it('wear for the coming days: the 1min heart dataset has that many minutes, the truth says so, GET reads it', async () => {
    await control('clock', { now: '2026-06-10T12:00:00Z' });
    const today = '2026-06-10';
    const set = await control('wear', { userId, days: 3, hoursPerDay: 5 });
    expect(set.status).toBe(200);
    expect(set.body.days).toEqual([0, 1, 2].map((i) => ({ date: addDays(today, i), wearMinutes: 300 })));
    for (let i = 0; i < 3; i++) {
      const date = addDays(today, i);
      expect(await heartMinutes(date)).toHaveLength(300);
      expect(fitbitWearMinutes(userId, date)).toBe(300);
      // Worn from 07:00: no steps before, and the night before the next day is off the wrist.
      const steps = (await get(`/1/user/-/activities/steps/date/${date}/1d/1min.json`))[
        'activities-steps-intraday'
      ].dataset as Array<{ time: string; value: number }>;
      expect(steps.filter((e) => e.value > 0 && (e.time < '07:00:00' || e.time >= '12:00:00'))).toEqual([]);
    }
    const sleep = await get(`/1.2/user/-/sleep/date/${addDays(today, 1)}.json`);
    expect(sleep.sleep).toEqual([]);
    const read = await http(`${base}/_control/wear?userId=${userId}&from=${today}&to=${addDays(today, 3)}`);
    const truth = (await read.json()).days;
    expect(truth.slice(0, 3).map((d: Json) => d.wearMinutes)).toEqual([300, 300, 300]);
    expect(truth[3].wearMinutes).toBe(fitbitWearMinutes(userId, addDays(today, 3)));
    // A whole day in the drawer.
    await control('wear', { userId, from: '2026-06-20', minutesPerDay: 0 });
    expect(await heartMinutes('2026-06-20')).toEqual([]);
    const series = await get('/1/user/-/activities/steps/date/2026-06-20/1d.json');
    expect(series['activities-steps']).toEqual([{ dateTime: '2026-06-20', value: '0' }]);
    // Bad bodies.
    expect((await control('wear', { userId, days: 2 })).status).toBe(400);
    expect((await control('wear', { userId, from: '2026-13-01', minutesPerDay: 10 })).status).toBe(400);
    expect((await control('wear', { minutesPerDay: 10 })).status).toBe(400);
  });

  it('battery: devices answer the level and its bucket', async () => {
    const low = await control('battery', { userId, level: 3 });
    expect(low.body).toEqual({ userId, batteryLevel: 3, battery: 'Empty' });
    expect(await tracker()).toMatchObject({ batteryLevel: 3, battery: 'Empty' });
    await control('battery', { userId, level: 18 });
    expect(await tracker()).toMatchObject({ batteryLevel: 18, battery: 'Low' });
    expect((await control('battery', { userId, level: 101 })).status).toBe(400);
    await control('reset');
    expect((await tracker()).batteryLevel).not.toBe(18);
  });

  it('stop-sync: lastSyncTime freezes; series list later days with "0", intraday datasets are empty; syncing again brings the backlog', async () => {
    const { tz } = fitbitUserTimezone(userId);
    await control('clock', { now: '2026-08-20T12:00:00Z' });
    const days = ['2026-08-14', '2026-08-15', '2026-08-16', '2026-08-17'];
    await control('wear', { userId, from: days[0], days: 4, minutesPerDay: 1440 });
    // Stop at the local noon of the 15th.
    const at = instantOfLocal(tz, '2026-08-15T12:00');
    const stop = await control('stop-sync', { userId, at: new Date(at).toISOString() });
    expect(stop.body).toMatchObject({
      stoppedAt: new Date(at).toISOString(),
      lastSyncTime: wallClockMs(tz, at),
    });
    expect((await tracker()).lastSyncTime).toBe(wallClockMs(tz, at));
    await control('clock', { advanceMs: 86_400_000 });
    expect((await tracker()).lastSyncTime).toBe(wallClockMs(tz, at));

    expect(await heartMinutes(days[0]!)).toHaveLength(1440);
    const partial = await heartMinutes(days[1]!);
    expect(partial).toHaveLength(720);
    expect(partial[partial.length - 1].time).toBe('11:59:00');
    for (const d of days.slice(2)) {
      expect(await heartMinutes(d)).toEqual([]);
      expect(
        (await get(`/1/user/-/activities/heart/date/${d}/1d/1sec.json`))['activities-heart-intraday'].dataset,
      ).toEqual([]);
      expect(
        (await get(`/1/user/-/activities/steps/date/${d}/1d/1min.json`))[
          'activities-steps-intraday'
        ].dataset.some((e: Json) => e.value > 0),
      ).toBe(false);
    }
    const series = await get(`/1/user/-/activities/steps/date/${days[0]}/${days[3]}.json`);
    expect(series['activities-steps'].map((e: Json) => e.dateTime)).toEqual(days);
    expect(series['activities-steps'].slice(2).map((e: Json) => e.value)).toEqual(['0', '0']);
    expect(Number(series['activities-steps'][0].value)).toBeGreaterThan(0);
    const sleep = await get(`/1.2/user/-/sleep/date/${days[2]}/${days[3]}.json`);
    expect(sleep.sleep).toEqual([]);

    // Syncing again: the backlog arrives, and the last sync follows the schedule again.
    const resumed = await control('stop-sync', { userId, at: null });
    expect(resumed.body.stoppedAt).toBeNull();
    expect(await heartMinutes(days[3]!)).toHaveLength(1440);
    expect((await tracker()).lastSyncTime > wallClockMs(tz, at)).toBe(true);
    expect((await control('stop-sync', { userId, at: 'yesterday' })).status).toBe(400);
  });

  it('reset: the natural wear, battery and sync schedule again', async () => {
    resetFitbitDeviceState();
    const date = '2026-09-01';
    const natural = fitbitWearMinutes(userId, date);
    await control('wear', { userId, from: date, minutesPerDay: 42 });
    expect(await heartMinutes(date)).toHaveLength(42);
    await control('reset');
    expect(await heartMinutes(date)).toHaveLength(natural);
  });
});
