/* Conformance of the Fitbit simulator with providers.md §1, over real HTTP. */
import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimClock } from '../clock.js';
import { http } from '../test-kit.js';
import { fitbitSimulator } from './fitbit-simulator.js';

const CLIENT = {
  clientId: 'TESTAPP',
  clientSecret: 's3cret',
  redirectUris: ['http://127.0.0.1:9/fitbit-callback'],
};
const basic = `Basic ${Buffer.from('TESTAPP:s3cret').toString('base64')}`;

describe('Fitbit simulator', () => {
  let app: FastifyInstance;
  let base: string;
  const clock = new SimClock();

  beforeAll(async () => {
    app = Fastify();
    await app.register(fitbitSimulator, {
      control: true,
      prefix: '/sim/fitbit',
      clients: [CLIENT],
      clock,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/sim/fitbit`;
  });
  afterAll(() => app.close());

  const form = (body: Record<string, string>) => new URLSearchParams(body).toString();
  const post = (
    path: string,
    body: Record<string, string>,
    headers: Record<string, string> = { authorization: basic },
  ) =>
    http(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: form(body),
      redirect: 'manual',
    });
  const control = (path: string, body: object) =>
    http(`${base}/_control/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  /** Runs consent (Allow) and the token exchange with PKCE S256. */
  async function authorize(state: string, scope = 'settings profile activity') {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const page = await http(
      `${base}/oauth2/authorize?${form({ client_id: 'TESTAPP', response_type: 'code', redirect_uri: CLIENT.redirectUris[0]!, scope, state, code_challenge: challenge, code_challenge_method: 'S256' })}`,
    );
    const html = await page.text();
    expect(html).toContain('>Allow</button>');
    const account = html.match(/name="account" value="([A-Z0-9]{6})"/)![1]!;
    const decision = await post(
      '/oauth2/authorize',
      {
        client_id: 'TESTAPP',
        redirect_uri: CLIENT.redirectUris[0]!,
        scope,
        state,
        account,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        decision: 'allow',
      },
      {},
    );
    expect(decision.status).toBe(302);
    const location = new URL(decision.headers.get('location')!);
    expect(location.hash).toBe('#_=_');
    expect(location.searchParams.get('state')).toBe(state);
    const code = location.searchParams.get('code')!;
    return { code, verifier, account };
  }

  it('authorize shows request errors on the page, as Fitbit does', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ response_type: 'code' }, 'invalid_request - Missing parameters: client_id'],
      [{ client_id: 'NOPE', response_type: 'code' }, 'unauthorized_client - Invalid client_id'],
      [
        { client_id: 'TESTAPP', response_type: 'token', redirect_uri: CLIENT.redirectUris[0]! },
        'unsupported_response_type - Invalid response_type parameter value',
      ],
      [
        { client_id: 'TESTAPP', response_type: 'code', redirect_uri: 'http://evil.example/cb' },
        'invalid_request - Invalid redirect_uri parameter value',
      ],
      [
        {
          client_id: 'TESTAPP',
          response_type: 'code',
          redirect_uri: CLIENT.redirectUris[0]!,
          code_challenge: 'short',
        },
        'invalid_request - The code_challenge parameter length must be between 43 and 128',
      ],
    ];
    for (const [q, message] of cases) {
      const res = await http(`${base}/oauth2/authorize?${form(q)}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(message);
    }
  });

  it('Deny redirects with access_denied and the state', async () => {
    const res = await post(
      '/oauth2/authorize',
      {
        client_id: 'TESTAPP',
        redirect_uri: CLIENT.redirectUris[0]!,
        state: 's1',
        account: 'ABCDEF',
        decision: 'deny',
      },
      {},
    );
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('s1');
  });

  it('code exchange: PKCE checked, 8-hour Bearer tokens, the code works once', async () => {
    const { code, verifier, account } = await authorize('participant-1');
    const bad = await post('/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CLIENT.redirectUris[0]!,
      code_verifier: 'wrong'.repeat(10),
    });
    expect(bad.status).toBe(400);
    const { code: code2, verifier: v2 } = await authorize('participant-1');
    const ok = await post('/oauth2/token', {
      grant_type: 'authorization_code',
      code: code2,
      redirect_uri: CLIENT.redirectUris[0]!,
      code_verifier: v2,
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      expires_in: 28800,
      token_type: 'Bearer',
      user_id: account,
      scope: 'settings profile activity',
    });
    const again = await post('/oauth2/token', {
      grant_type: 'authorization_code',
      code: code2,
      redirect_uri: CLIENT.redirectUris[0]!,
      code_verifier: v2,
    });
    expect(again.status).toBe(400);
    expect((await again.json()).errors[0].errorType).toBe('invalid_grant');
    expect(verifier).not.toBe(v2);
  });

  it('codes expire after 10 minutes', async () => {
    const { code, verifier } = await authorize('participant-2');
    await control('clock', { advanceMs: 10 * 60 * 1000 + 1000 });
    const res = await post('/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CLIENT.redirectUris[0]!,
      code_verifier: verifier,
    });
    expect(res.status).toBe(400);
    await control('clock', { reset: true });
  });

  async function tokens(state: string, scope?: string) {
    const { code, verifier, account } = await authorize(state, scope);
    const res = await post('/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CLIENT.redirectUris[0]!,
      code_verifier: verifier,
    });
    return { ...(await res.json()), account } as {
      access_token: string;
      refresh_token: string;
      account: string;
    };
  }

  it('refresh rotates: the old refresh token conflicts (409) at once and is invalid (400) later', async () => {
    const t = await tokens('participant-3');
    const r1 = await post('/oauth2/token', { grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(r1.status).toBe(200);
    const next = await r1.json();
    expect(next.refresh_token).not.toBe(t.refresh_token);
    const conflict = await post('/oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
    });
    expect(conflict.status).toBe(409);
    await control('clock', { advanceMs: 3000 });
    const reused = await post('/oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
    });
    expect(reused.status).toBe(400);
    const body = await reused.json();
    expect(body).toMatchObject({ success: false, errors: [{ errorType: 'invalid_grant' }] });
    expect(body.errors[0].message).toMatch(
      /^Refresh token invalid: .+ Visit https:\/\/dev\.fitbit\.com\/docs\/oauth2/,
    );
    await control('clock', { reset: true });
    const missing = await post('/oauth2/token', { grant_type: 'refresh_token' });
    expect((await missing.json()).errors[0]).toMatchObject({ errorType: 'invalid_request' });
    const badClient = await post(
      '/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: next.refresh_token },
      { authorization: `Basic ${Buffer.from('TESTAPP:nope').toString('base64')}` },
    );
    expect(badClient.status).toBe(401);
  });

  it('devices and profile with the real shapes, rate-limit headers and scope checks', async () => {
    const t = await tokens('participant-4', 'settings profile');
    const res = await http(`${base}/1/user/-/devices.json`, {
      headers: { authorization: `Bearer ${t.access_token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('fitbit-rate-limit-limit')).toBe('150');
    expect(res.headers.get('fitbit-rate-limit-remaining')).toBe('149');
    expect(Number(res.headers.get('fitbit-rate-limit-reset'))).toBeGreaterThan(0);
    const devices = await res.json();
    expect(Array.isArray(devices)).toBe(true);
    expect(devices[0]).toMatchObject({
      type: 'TRACKER',
      battery: expect.stringMatching(/^(High|Medium|Low|Empty)$/),
    });
    expect(devices[0].lastSyncTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/); // local time, no offset
    expect(typeof devices[0].batteryLevel).toBe('number');
    const again = await (
      await http(`${base}/1/user/-/devices.json`, { headers: { authorization: `Bearer ${t.access_token}` } })
    ).json();
    expect(again).toEqual(devices); // deterministic per user
    const profile = await (
      await http(`${base}/1/user/-/profile.json`, { headers: { authorization: `Bearer ${t.access_token}` } })
    ).json();
    expect(profile.user).toMatchObject({
      encodedId: t.account,
      timezone: expect.any(String),
      offsetFromUTCMillis: expect.any(Number),
    });
    const noScope = await tokens('participant-5', 'activity');
    const forbidden = await http(`${base}/1/user/-/devices.json`, {
      headers: { authorization: `Bearer ${noScope.access_token}` },
    });
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).errors[0].errorType).toBe('insufficient_scope');
  });

  it('429 with Retry-After after 150 calls in the hour', async () => {
    const t = await tokens('participant-6', 'settings');
    await control('exhaust-rate-limit', { userId: t.account, clientId: 'TESTAPP' });
    const res = await http(`${base}/1/user/-/devices.json`, {
      headers: { authorization: `Bearer ${t.access_token}` },
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.headers.get('fitbit-rate-limit-remaining')).toBe('0');
    expect(await res.json()).toEqual({
      errors: [{ errorType: 'system', fieldName: 'n/a', message: 'Too Many Requests' }],
    });
  });

  it('reset-rate-limit gives the hour back, also after the whole hour was used up for everyone', async () => {
    const t = await tokens('participant-9', 'settings');
    const devices = () =>
      http(`${base}/1/user/-/devices.json`, { headers: { authorization: `Bearer ${t.access_token}` } });
    await control('exhaust-rate-limit', {});
    expect((await devices()).status).toBe(429);
    await control('reset-rate-limit', {});
    const after = await devices();
    expect(after.status).toBe(200);
    expect(after.headers.get('fitbit-rate-limit-remaining')).toBe('149');
  });

  it('expired and revoked tokens answer 401 with expired_token / invalid_token', async () => {
    const t = await tokens('participant-7', 'settings');
    await control('expire-token', { userId: t.account });
    const expired = await http(`${base}/1/user/-/devices.json`, {
      headers: { authorization: `Bearer ${t.access_token}` },
    });
    expect(expired.status).toBe(401);
    const body = await expired.json();
    expect(body).toMatchObject({ success: false, errors: [{ errorType: 'expired_token' }] });
    expect(body.errors[0].message).toMatch(/^Access token expired: /);
    // Refresh still works after expiry; then revoking either token kills all.
    const refreshed = await (
      await post('/oauth2/token', { grant_type: 'refresh_token', refresh_token: t.refresh_token })
    ).json();
    expect(
      (
        await http(`${base}/1/user/-/devices.json`, {
          headers: { authorization: `Bearer ${refreshed.access_token}` },
        })
      ).status,
    ).toBe(200);
    expect((await post('/oauth2/revoke', { token: refreshed.refresh_token })).status).toBe(200);
    const revoked = await http(`${base}/1/user/-/devices.json`, {
      headers: { authorization: `Bearer ${refreshed.access_token}` },
    });
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).errors[0].errorType).toBe('invalid_token');
  });

  it('the control API can fail the next calls with a status', async () => {
    const t = await tokens('participant-8', 'settings');
    await control('fail-next', { count: 2, status: 503 });
    for (let i = 0; i < 2; i++)
      expect(
        (
          await http(`${base}/1/user/-/devices.json`, {
            headers: { authorization: `Bearer ${t.access_token}` },
          })
        ).status,
      ).toBe(503);
    expect(
      (
        await http(`${base}/1/user/-/devices.json`, {
          headers: { authorization: `Bearer ${t.access_token}` },
        })
      ).status,
    ).toBe(200);
  });

  it('a sole registered redirect_uri may be left out; public clients send client_id alone', async () => {
    const page = await (
      await http(
        `${base}/oauth2/authorize?${form({ client_id: 'TESTAPP', response_type: 'code', scope: 'settings', state: 'p-9' })}`,
      )
    ).text();
    expect(page).toContain(`name="redirect_uri" value="${CLIENT.redirectUris[0]}"`);
    const account = page.match(/name="account" value="([A-Z0-9]{6})"/)![1]!;
    const back = await post(
      '/oauth2/authorize',
      {
        client_id: 'TESTAPP',
        redirect_uri: CLIENT.redirectUris[0]!,
        scope: 'settings',
        account,
        decision: 'allow',
      },
      {},
    );
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!;
    const res = await post(
      '/oauth2/token',
      { grant_type: 'authorization_code', code, redirect_uri: CLIENT.redirectUris[0]!, client_id: 'TESTAPP' },
      {},
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ user_id: account, scope: 'settings' });
  });

  it('revoke: 401 invalid_client for a bad client, 400 invalid_request without a token, {} on success', async () => {
    const t = await tokens('participant-10', 'settings');
    const badClient = await post(
      '/oauth2/revoke',
      { token: t.refresh_token },
      { authorization: `Basic ${Buffer.from('TESTAPP:nope').toString('base64')}` },
    );
    expect(badClient.status).toBe(401);
    expect((await badClient.json()).errors[0].errorType).toBe('invalid_client');
    const noToken = await post('/oauth2/revoke', {});
    expect(noToken.status).toBe(400);
    expect((await noToken.json()).errors[0].message).toMatch(/^Missing parameters: token\. Visit /);
    const ok = await post('/oauth2/revoke', { token: t.access_token });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({});
  });
});
