/* Conformance of the Dexcom v3 simulator with providers.md §3, over real HTTP. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
      redirect: 'manual',
    });

  async function tokens(state: string) {
    const page = await (
      await fetch(
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
    fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });

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

  it('401 after revoke; 429 with Retry-After when the app-wide hour is used up', async () => {
    const t = await tokens('d-3');
    const control = (p: string, b: object) =>
      fetch(`${base}/_control/${p}`, {
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
      (await fetch(`${base}/v2/oauth2/login?${new URLSearchParams(q)}`)).text();
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
