/* Conformance of the Dexcom v3 simulator with providers.md §3, over real HTTP. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../test-kit.js';
import { dexcomCalibrations, dexcomEvents } from './dexcom-data.js';
import { dexcomSimulator } from './dexcom-simulator.js';

const CLIENT = {
  clientId: 'DEXAPP',
  clientSecret: 'dex-secret',
  redirectUris: ['http://127.0.0.1:9/dexcom-callback'],
};
const fmt = (t: number) => new Date(t).toISOString().slice(0, 19);

describe('Dexcom simulator', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    app = Fastify();
    await app.register(dexcomSimulator, {
      control: true,
      prefix: '/sim/dexcom',
      clients: [CLIENT],
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/sim/dexcom`;
  });
  afterAll(() => app.close());

  const post = (path: string, body: Record<string, string>) =>
    http(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
      redirect: 'manual',
    });

  async function tokens(state: string) {
    const page = await (
      await http(
        `${base}/v2/oauth2/login?${new URLSearchParams({ client_id: 'DEXAPP', redirect_uri: CLIENT.redirectUris[0]!, response_type: 'code', scope: 'offline_access', state })}`,
      )
    ).text();
    const account = page.match(/name="account" value="([^"]+)"/)![1]!;
    const back = await post('/v2/oauth2/login', {
      client_id: 'DEXAPP',
      redirect_uri: CLIENT.redirectUris[0]!,
      scope: 'offline_access',
      state,
      account,
      decision: 'allow',
    });
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!;
    const res = await post('/v2/oauth2/token', {
      client_id: 'DEXAPP',
      client_secret: 'dex-secret',
      code,
      grant_type: 'authorization_code',
      redirect_uri: CLIENT.redirectUris[0]!,
    });
    return { ...(await res.json()), account } as {
      access_token: string;
      refresh_token: string;
      expires_in: number;
      refresh_expires_in: number;
      account: string;
    };
  }
  const get = (path: string, token: string) =>
    http(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });

  it('2-hour tokens with Keycloak fields; refresh rotates; reuse → invalid_grant', async () => {
    const t = await tokens('d-1');
    expect(t.expires_in).toBe(7200);
    expect(t.refresh_expires_in).toBe(0);
    const r = await post('/v2/oauth2/token', {
      client_id: 'DEXAPP',
      client_secret: 'dex-secret',
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
    });
    expect(r.status).toBe(200);
    const reuse = await post('/v2/oauth2/token', {
      client_id: 'DEXAPP',
      client_secret: 'dex-secret',
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
    });
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe('invalid_grant');
  });

  it('EGVs every 5 minutes in the v3 envelope, plausible values, the 30-day window rule', async () => {
    const t = await tokens('d-2');
    const end = Date.now() - 3_600_000;
    const res = await get(
      `/v3/users/self/egvs?startDate=${fmt(end - 86_400_000)}&endDate=${fmt(end)}`,
      t.access_token,
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      recordType: 'egv',
      recordVersion: '3.0',
      userId: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(body.records.length).toBeGreaterThan(200); // 288 a day, less any sensor gap
    for (const r of body.records) {
      expect(r.value).toBeGreaterThanOrEqual(40);
      expect(r.value).toBeLessThanOrEqual(400);
      expect(r.unit).toBe('mg/dL');
      expect(r.systemTime).toMatch(/Z$/);
      expect(r.displayTime).toMatch(/[+-]\d{2}:\d{2}$/);
    }
    const gaps = body.records
      .slice(1)
      .map(
        (r: { systemTime: string }, i: number) =>
          Date.parse(r.systemTime) - Date.parse(body.records[i].systemTime),
      );
    expect(Math.min(...gaps)).toBe(300_000);
    const tooLong = await get(
      `/v3/users/self/egvs?startDate=${fmt(end - 31 * 86_400_000)}&endDate=${fmt(end)}`,
      t.access_token,
    );
    expect(tooLong.status).toBe(400);
    const withOffset = await get(
      `/v3/users/self/egvs?startDate=${fmt(end - 3_600_000)}%2B00:00&endDate=${fmt(end)}`,
      t.access_token,
    );
    expect(withOffset.status).toBe(400);
    expect(
      (await get(`/v3/users/self/egvs?startDate=${fmt(end)}&endDate=${fmt(end - 1000)}`, t.access_token))
        .status,
    ).toBe(400);
    const devices = await (await get('/v3/users/self/devices', t.access_token)).json();
    expect(devices.records[0]).toMatchObject({ transmitterGeneration: 'g7', displayApp: 'G7' });
    const range = await (await get('/v3/users/self/dataRange', t.access_token)).json();
    expect(range).toMatchObject({
      recordType: 'dataRange',
      egvs: { start: expect.any(Object), end: expect.any(Object) },
    });
  });

  it('calibrations and events: v3 records in the window, singular recordType, event values as strings, 30-day rule', async () => {
    const t = await tokens('d-5');
    const end = Date.now() - 3_600_000;
    const q = `startDate=${fmt(end - 30 * 86_400_000)}&endDate=${fmt(end)}`;
    const cal = await (await get(`/v3/users/self/calibrations?${q}`, t.access_token)).json();
    const from = Date.parse(`${fmt(end - 30 * 86_400_000)}Z`);
    const to = Date.parse(`${fmt(end)}Z`);
    expect(cal).toMatchObject({ recordType: 'calibration', recordVersion: '3.0' });
    expect(cal.records).toEqual(dexcomCalibrations(t.account, from, to));
    expect(cal.records.length).toBeGreaterThan(0);
    for (const c of cal.records) {
      expect(c).toMatchObject({ unit: 'mg/dL', displayDevice: 'iOS', transmitterGeneration: 'g7' });
      expect(c.value).toBeGreaterThanOrEqual(34);
      expect(c.systemTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(c.displayTime).toMatch(/[+-]\d{2}:\d{2}$/);
    }
    const ev = await (await get(`/v3/users/self/events?${q}`, t.access_token)).json();
    expect(ev).toMatchObject({ recordType: 'event', recordVersion: '3.0' });
    expect(ev.records).toEqual(dexcomEvents(t.account, from, to));
    const types = new Set(ev.records.map((e: { eventType: string }) => e.eventType));
    expect([...types].sort()).toEqual(['carbs', 'exercise', 'insulin']);
    for (const e of ev.records) {
      expect(typeof e.value).toBe('string');
      expect(e.eventStatus).toBe('created');
      expect(['grams', 'units', 'minutes']).toContain(e.unit);
      expect(Date.parse(e.systemTime)).toBeGreaterThanOrEqual(from);
      expect(Date.parse(e.systemTime)).toBeLessThan(to);
    }
    const times = ev.records.map((e: { systemTime: string }) => e.systemTime);
    expect(new Set(times).size).toBe(times.length);
    for (const path of ['calibrations', 'events']) {
      const long = `startDate=${fmt(end - 31 * 86_400_000)}&endDate=${fmt(end)}`;
      expect((await get(`/v3/users/self/${path}?${long}`, t.access_token)).status).toBe(400);
      expect((await get(`/v3/users/self/${path}`, t.access_token)).status).toBe(400);
    }
    const range = await (await get('/v3/users/self/dataRange', t.access_token)).json();
    expect(range.calibrations).toMatchObject({ start: { systemTime: expect.any(String) } });
    expect(range.events.end.systemTime <= new Date().toISOString()).toBe(true);
  });

  it('401 after revoke; 429 with Retry-After when the app-wide hour is used up', async () => {
    const t = await tokens('d-3');
    const control = (p: string, b: object) =>
      http(`${base}/_control/${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(b),
      });
    await control('exhaust-rate-limit', {});
    const limited = await get('/v3/users/self/devices', t.access_token);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await control('clock', { advanceMs: 3_600_000 });
    await control('revoke', { userId: t.account });
    expect((await get('/v3/users/self/devices', t.access_token)).status).toBe(401);
    await control('clock', { reset: true });
  });

  it('authorize errors on the page, offline_access by default; 401 invalid_client; no revoke endpoint', async () => {
    const page = async (q: Record<string, string>) =>
      (await http(`${base}/v2/oauth2/login?${new URLSearchParams(q)}`)).text();
    expect(await page({ client_id: 'NOPE', response_type: 'code' })).toContain('<p>invalid_client</p>');
    expect(
      await page({ client_id: 'DEXAPP', response_type: 'code', redirect_uri: 'http://evil.example/cb' }),
    ).toContain('<p>invalid redirect_uri</p>');
    const consent = await page({
      client_id: 'DEXAPP',
      response_type: 'code',
      redirect_uri: CLIENT.redirectUris[0]!,
    });
    expect(consent).toContain('name="scope" value="offline_access"');
    expect(consent).toMatch(/name="account" value="SandboxUser-[0-9a-f]{8}"/);
    const badClient = await post('/v2/oauth2/token', {
      client_id: 'DEXAPP',
      client_secret: 'nope',
      grant_type: 'refresh_token',
      refresh_token: 'x',
    });
    expect(badClient.status).toBe(401);
    expect((await badClient.json()).error).toBe('invalid_client');
    const t = await tokens('d-4');
    const creds = { client_id: 'DEXAPP', client_secret: 'dex-secret' };
    await post('/v2/oauth2/token', { ...creds, grant_type: 'refresh_token', refresh_token: t.refresh_token });
    const reuse = await post('/v2/oauth2/token', {
      ...creds,
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
    });
    expect(await reuse.json()).toEqual({ error: 'invalid_grant', error_description: 'Token is not active' });
    expect((await post('/v2/oauth2/revoke', { ...creds, token: t.access_token })).status).toBe(404);
  });
});
