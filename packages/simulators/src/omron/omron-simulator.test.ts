/* Conformance of the Omron simulator with providers.md §2, over real HTTP. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimClock } from '../clock.js';
import { http } from '../test-kit.js';
import { omronSimulator } from './omron-simulator.js';

const CLIENT = {
  clientId: 'OMRONAPP',
  clientSecret: 'omron-secret',
  redirectUris: ['http://127.0.0.1:9/omron-callback'],
};

describe('Omron simulator', () => {
  let app: FastifyInstance;
  let base: string;
  const clock = new SimClock();
  beforeAll(async () => {
    app = Fastify();
    await app.register(omronSimulator, {
      control: true,
      prefix: '/sim/omron',
      clients: [CLIENT],
      clock,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/sim/omron`;
  });
  afterAll(() => app.close());

  const post = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    http(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body).toString(),
      redirect: 'manual',
    });

  async function tokens(state: string) {
    const page = await (
      await http(
        `${base}/connect/authorize?${new URLSearchParams({ client_id: 'OMRONAPP', response_type: 'code', redirect_uri: CLIENT.redirectUris[0]!, scope: 'openid offline_access bloodpressure weight', state })}`,
      )
    ).text();
    expect(page).toContain('>Allow</button>');
    const account = page.match(/name="account" value="([0-9a-f]+)"/)![1]!;
    const back = await post('/connect/authorize', {
      client_id: 'OMRONAPP',
      redirect_uri: CLIENT.redirectUris[0]!,
      scope: 'bloodpressure weight',
      state,
      account,
      decision: 'allow',
    });
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!;
    const res = await post('/connect/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CLIENT.redirectUris[0]!,
      client_id: 'OMRONAPP',
      client_secret: 'omron-secret',
    });
    expect(res.status).toBe(200);
    return { ...(await res.json()), account } as {
      access_token: string;
      refresh_token: string;
      id_token: string;
      expires_in: number;
      account: string;
    };
  }

  it('token answer: id_token whose sub is the Omron user, 1-hour Bearer, rotating refresh, RFC errors', async () => {
    const t = await tokens('p-1');
    expect(t.expires_in).toBe(3600);
    const sub = JSON.parse(Buffer.from(t.id_token.split('.')[1]!, 'base64url').toString()).sub;
    expect(sub).toBe(t.account);
    const r = await post('/connect/token', {
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
      client_id: 'OMRONAPP',
      client_secret: 'omron-secret',
    });
    const next = await r.json();
    expect(next.id_token).toBeUndefined();
    expect(next.refresh_token).not.toBe(t.refresh_token);
    await http(`${base}/_control/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 5000 }),
    });
    const reused = await post('/connect/token', {
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
      client_id: 'OMRONAPP',
      client_secret: 'omron-secret',
    });
    expect(reused.status).toBe(400);
    expect((await reused.json()).error).toBe('invalid_grant');
    await http(`${base}/_control/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reset: true }),
    });
    const badClient = await post('/connect/token', {
      grant_type: 'refresh_token',
      refresh_token: next.refresh_token,
      client_id: 'OMRONAPP',
      client_secret: 'nope',
    });
    expect((await badClient.json()).error).toBe('invalid_client');
  });

  it('measurements: since/type/limit/sortOrder, UTC and local times, plausible values', async () => {
    const t = await tokens('p-2');
    const since = new Date(Date.now() - 14 * 86_400_000).toISOString().slice(0, 10);
    const res = await post(
      '/api/measurement',
      { since, type: 'bloodpressure', sortOrder: 'asc' },
      { authorization: `Bearer ${t.access_token}` },
    );
    const body = await res.json();
    expect(body.status).toBe(0);
    expect(body.result.weight).toBeUndefined();
    const bp = body.result.bloodPressure;
    expect(bp.length).toBeGreaterThan(5);
    for (const r of bp) {
      expect(r.systolic).toBeGreaterThanOrEqual(100);
      expect(r.systolic).toBeLessThanOrEqual(175);
      expect(r.diastolic).toBeLessThan(r.systolic);
      expect(r.dateTime).toMatch(/Z$/);
      expect(r.dateTimeLocal).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      expect(r.dateTimeUtcOffset).toMatch(/^[+-]\d{2}:\d{2}$/);
      expect(Date.parse(r.dateTime)).toBeGreaterThanOrEqual(Date.parse(`${since}T00:00:00Z`));
    }
    const times = bp.map((r: { dateTime: string }) => Date.parse(r.dateTime));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const limited = await (
      await post(
        '/api/measurement',
        { since, limit: '3', sortOrder: 'desc' },
        { authorization: `Bearer ${t.access_token}` },
      )
    ).json();
    expect(limited.result.truncated).toBe(true);
    expect(limited.result.bloodPressure).toHaveLength(3);
    expect(Date.parse(limited.result.bloodPressure[0].dateTime)).toBeGreaterThan(
      Date.parse(limited.result.bloodPressure[2].dateTime),
    );
    const again = await (
      await post(
        '/api/measurement',
        { since, type: 'bloodpressure', sortOrder: 'asc' },
        { authorization: `Bearer ${t.access_token}` },
      )
    ).json();
    expect(again.result.bloodPressure).toEqual(bp); // deterministic
  });

  it('401 for an expired or revoked token; revocation answers 200 with no body', async () => {
    const t = await tokens('p-3');
    await http(`${base}/_control/expire-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: t.account }),
    });
    expect(
      (await post('/api/measurement', { since: '2026-01-01' }, { authorization: `Bearer ${t.access_token}` }))
        .status,
    ).toBe(401);
    const revoke = await post('/connect/revocation', {
      token: t.refresh_token,
      token_type_hint: 'refresh_token',
      client_id: 'OMRONAPP',
      client_secret: 'omron-secret',
    });
    expect(revoke.status).toBe(200);
    expect(await revoke.text()).toBe('');
    const refresh = await post('/connect/token', {
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
      client_id: 'OMRONAPP',
      client_secret: 'omron-secret',
    });
    expect(refresh.status).toBe(400);
  });

  it('authorize errors on the page, Deny without error_description, PKCE ignored, 409 on concurrent refresh', async () => {
    const page = async (q: Record<string, string>) =>
      (await http(`${base}/connect/authorize?${new URLSearchParams(q)}`)).text();
    expect(await page({ client_id: 'NOPE', response_type: 'code' })).toContain('<p>invalid_client</p>');
    expect(await page({ client_id: 'OMRONAPP', response_type: 'token' })).toContain(
      '<p>unsupported_response_type</p>',
    );
    expect(await page({ client_id: 'OMRONAPP', response_type: 'code' })).toContain(
      'invalid_request: redirect_uri is not registered',
    );
    const deny = await post('/connect/authorize', {
      client_id: 'OMRONAPP',
      redirect_uri: CLIENT.redirectUris[0]!,
      state: 's',
      account: 'a',
      decision: 'deny',
    });
    expect(deny.headers.get('location')).toBe(`${CLIENT.redirectUris[0]}?error=access_denied&state=s`);
    const back = await post('/connect/authorize', {
      client_id: 'OMRONAPP',
      redirect_uri: CLIENT.redirectUris[0]!,
      scope: 'weight',
      account: 'a',
      code_challenge: 'x'.repeat(43),
      decision: 'allow',
    });
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!;
    const creds = { client_id: 'OMRONAPP', client_secret: 'omron-secret' };
    const res = await post('/connect/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CLIENT.redirectUris[0]!,
      ...creds,
    });
    expect(res.status).toBe(200); // no code_verifier needed
    const { refresh_token } = await res.json();
    expect(
      (await post('/connect/token', { grant_type: 'refresh_token', refresh_token, ...creds })).status,
    ).toBe(200);
    const conflict = await post('/connect/token', { grant_type: 'refresh_token', refresh_token, ...creds });
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).error).toBe('invalid_grant');
  });
});
