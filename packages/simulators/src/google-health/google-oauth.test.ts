/* Conformance of the Google Health simulator's OAuth with google-health-api.md §2, over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitbitUserId } from '../fitbit/fitbit-data.js';
import { googleHealthUserId } from './person.js';
import {
  ALL_SCOPES,
  api,
  CLIENT,
  consent,
  control,
  form,
  type Json,
  LEGACY_CLIENT,
  link,
  type Sim,
  scopeOf,
  startSim,
  tokenRequest,
} from './test-kit.js';

describe('Google Health simulator: OAuth', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(() => sim.close());

  const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
    tokenRequest(sim, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CLIENT.redirectUris[0]!,
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
      code_verifier: verifier,
      ...extra,
    });

  it('the consent page lists the requested scopes with Allow and Deny, one ticked box each', async () => {
    const c = await consent(sim, { state: 'p-page.n.mac' });
    expect(c.html).toContain('>Allow</button>');
    expect(c.html).toContain('>Deny</button>');
    for (const s of ALL_SCOPES) expect(c.html).toContain(`name="scope_item" value="${s}" checked`);
    expect(c.html).toContain('See your sleep data');
    expect(c.hidden.access_type).toBe('offline');
    expect(c.hidden.prompt).toBe('consent');
    expect(c.location.searchParams.get('state')).toBe('p-page.n.mac');
    expect(c.location.searchParams.get('scope')).toBe(ALL_SCOPES.join(' '));
    expect(c.location.hash).toBe('');
  });

  it('authorize errors are shown on the page, in Google words', async () => {
    const base = {
      client_id: CLIENT.clientId,
      redirect_uri: CLIENT.redirectUris[0]!,
      response_type: 'code',
      scope: ALL_SCOPES[0]!,
    };
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...base, client_id: '' }, 'Error 400: invalid_request. Missing required parameter: client_id'],
      [{ ...base, client_id: 'nope' }, 'Error 401: invalid_client. The OAuth client was not found.'],
      [{ ...base, redirect_uri: 'http://evil.example/cb' }, 'Error 400: redirect_uri_mismatch'],
      [{ ...base, response_type: 'token' }, 'Error 400: unsupported_response_type'],
      [{ ...base, scope: '' }, 'Error 400: invalid_request. Missing required parameter: scope'],
      [
        { ...base, scope: `${ALL_SCOPES[0]} https://www.googleapis.com/auth/googlehealth.nope.readonly` },
        'Error 400: invalid_scope. Some requested scopes were invalid. {invalid=[https://www.googleapis.com/auth/googlehealth.nope.readonly]}',
      ],
      [
        { ...base, code_challenge: 'short', code_challenge_method: 'S256' },
        'Error 400: invalid_request. Invalid code_challenge length.',
      ],
    ];
    for (const [q, message] of cases) {
      const res = await fetch(`${sim.base}/o/oauth2/v2/auth?${form(q)}`);
      expect(await res.text()).toContain(message);
    }
  });

  it('Deny redirects with error=access_denied and the state', async () => {
    const c = await consent(sim, { state: 'p-deny.n.mac', deny: true });
    expect(c.location.searchParams.get('error')).toBe('access_denied');
    expect(c.location.searchParams.get('state')).toBe('p-deny.n.mac');
    expect(c.code).toBeNull();
  });

  it('code exchange with PKCE S256: Google token fields, ya29 access token, 1// refresh token; no user_id', async () => {
    const c = await consent(sim, { state: 'p-exchange.n.mac' });
    const t = await exchange(c.code!, c.verifier);
    expect(t.status).toBe(200);
    expect(Object.keys(t.body)).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    expect(t.body.access_token).toMatch(/^ya29\./);
    expect(t.body.refresh_token).toMatch(/^1\/\/0g/);
    expect(t.body.expires_in).toBe(3599);
    expect(t.body.token_type).toBe('Bearer');
    expect(t.body.scope).toBe(ALL_SCOPES.join(' '));
    // The code is single use.
    const again = await exchange(c.code!, c.verifier);
    expect(again).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Bad Request' },
    });
  });

  it('token errors: wrong or missing verifier, wrong secret, redirect mismatch, unsupported grant', async () => {
    let c = await consent(sim, { state: 'p-err.n.mac' });
    expect(await exchange(c.code!, 'x'.repeat(43))).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid code verifier.' },
    });
    c = await consent(sim, { state: 'p-err.n.mac' });
    const { code_verifier: _, ...noVerifier } = {
      grant_type: 'authorization_code',
      code: c.code!,
      redirect_uri: CLIENT.redirectUris[0]!,
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
      code_verifier: '',
    };
    expect(await tokenRequest(sim, noVerifier)).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Missing code verifier.' },
    });
    c = await consent(sim, { state: 'p-err.n.mac' });
    expect(await exchange(c.code!, c.verifier, { client_secret: 'wrong' })).toEqual({
      status: 401,
      body: { error: 'invalid_client', error_description: 'Unauthorized' },
    });
    c = await consent(sim, { state: 'p-err.n.mac' });
    expect(await exchange(c.code!, c.verifier, { redirect_uri: 'http://127.0.0.1:9/other' })).toEqual({
      status: 400,
      body: { error: 'redirect_uri_mismatch', error_description: 'Bad Request' },
    });
    expect(
      await tokenRequest(sim, {
        grant_type: 'password',
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      }),
    ).toEqual({
      status: 400,
      body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' },
    });
    // HTTP Basic client authentication is accepted too.
    c = await consent(sim, { state: 'p-err.n.mac' });
    const res = await fetch(`${sim.base}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64')}`,
      },
      body: form({
        grant_type: 'authorization_code',
        code: c.code!,
        redirect_uri: CLIENT.redirectUris[0]!,
        code_verifier: c.verifier,
      }),
    });
    expect(res.status).toBe(200);
  });

  it('refresh tokens: only with access_type=offline; on a repeat consent only with prompt=consent', async () => {
    const online = await consent(sim, { state: 'p-offline.n.mac', accessType: 'online' });
    const t1 = await exchange(online.code!, online.verifier);
    expect(t1.body.refresh_token).toBeUndefined();
    const first = await consent(sim, { state: 'p-offline.n.mac', prompt: '' });
    expect((await exchange(first.code!, first.verifier)).body.refresh_token).toBeDefined();
    const repeat = await consent(sim, { state: 'p-offline.n.mac', prompt: '' });
    expect((await exchange(repeat.code!, repeat.verifier)).body.refresh_token).toBeUndefined();
    const forced = await consent(sim, { state: 'p-offline.n.mac', prompt: 'consent' });
    expect((await exchange(forced.code!, forced.verifier)).body.refresh_token).toBeDefined();
  });

  it('refresh does not rotate: a new access token, no refresh_token, the old refresh token still works', async () => {
    const t = await link(sim, 'p-refresh.n.mac');
    const refresh = () =>
      tokenRequest(sim, {
        grant_type: 'refresh_token',
        refresh_token: t.refresh_token!,
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      });
    const r1 = await refresh();
    expect(r1.status).toBe(200);
    expect(Object.keys(r1.body)).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(r1.body.access_token).not.toBe(t.access_token);
    const r2 = await refresh();
    expect(r2.status).toBe(200);
    expect((await api(sim, r2.body.access_token as string, '/v4/users/me/identity')).status).toBe(200);
  });

  it('granular consent: unticked scopes are not granted, and their endpoints answer 403', async () => {
    const c = await consent(sim, { state: 'p-partial.n.mac', untick: [scopeOf('sleep')] });
    const t = await exchange(c.code!, c.verifier);
    expect(t.body.scope).toBe(ALL_SCOPES.filter((s) => s !== scopeOf('sleep')).join(' '));
    const token = t.body.access_token as string;
    const sleep = await api(sim, token, '/v4/users/me/dataTypes/sleep/dataPoints');
    expect(sleep.status).toBe(403);
    expect(sleep.body.error.status).toBe('PERMISSION_DENIED');
    expect(sleep.body.error.message).toBe('Request had insufficient authentication scopes.');
    expect(sleep.body.error.details[0].reason).toBe('ACCESS_TOKEN_SCOPE_INSUFFICIENT');
    expect((await api(sim, token, '/v4/users/me/settings')).status).toBe(200);
  });

  it('incremental authorization: include_granted_scopes=true adds the scopes granted before', async () => {
    const first = await consent(sim, { state: 'p-incr.n.mac', scope: [scopeOf('sleep')] });
    await exchange(first.code!, first.verifier);
    const more = await consent(sim, { state: 'p-incr.n.mac', scope: [scopeOf('settings')] });
    expect((await exchange(more.code!, more.verifier)).body.scope).toBe(
      `${scopeOf('settings')} ${scopeOf('sleep')}`,
    );
    const only = await consent(sim, {
      state: 'p-incr.n.mac',
      scope: [scopeOf('settings')],
      includeGranted: false,
    });
    expect((await exchange(only.code!, only.verifier)).body.scope).toBe(scopeOf('settings'));
  });

  it('legacy suffix-less scope names are accepted (configurable)', async () => {
    const legacy = 'https://www.googleapis.com/auth/googlehealth.settings';
    const t = await link(sim, 'p-legacy-scope.n.mac', [legacy]);
    expect(t.scope).toBe(legacy);
    expect((await api(sim, t.access_token, '/v4/users/me/settings')).status).toBe(200);
  });

  it('revoke: token in the query or the form, 200 with an empty body; the grant is dead after it', async () => {
    const t = await link(sim, 'p-revoke.n.mac');
    const res = await fetch(`${sim.base}/revoke?token=${encodeURIComponent(t.refresh_token!)}`, {
      method: 'POST',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    const refresh = await tokenRequest(sim, {
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token!,
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
    });
    expect(refresh).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
    });
    const call = await api(sim, t.access_token, '/v4/users/me/identity');
    expect(call.status).toBe(401);
    const again = await fetch(`${sim.base}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ token: t.access_token }),
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({
      error: 'invalid_token',
      error_description: 'Token expired or revoked',
    });
  });

  it('an expired access token answers 401 UNAUTHENTICATED; the refresh token gives a working one', async () => {
    const t = await link(sim, 'p-expire.n.mac');
    await control(sim, 'expire-token', { userId: t.account });
    const call = await api(sim, t.access_token, '/v4/users/me/identity');
    expect(call.status).toBe(401);
    expect(call.headers.get('www-authenticate')).toContain('invalid_token');
    expect(call.body.error).toMatchObject({
      code: 401,
      status: 'UNAUTHENTICATED',
      message: expect.stringMatching(
        /^Request had invalid authentication credentials\. Expected OAuth 2 access token/,
      ),
    });
    const none = await fetch(`${sim.base}/v4/users/me/identity`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as Json).error.details[0].reason).toBe('CREDENTIALS_MISSING');
    const r = await tokenRequest(sim, {
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token!,
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
    });
    expect((await api(sim, r.body.access_token as string, '/v4/users/me/identity')).status).toBe(200);
  });

  it('refresh tokens die after 6 months unused, or after 7 days in testing mode', async () => {
    const t = await link(sim, 'p-idle.n.mac');
    const refresh = () =>
      tokenRequest(sim, {
        grant_type: 'refresh_token',
        refresh_token: t.refresh_token!,
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      });
    sim.clock.advance(100 * 86_400_000);
    expect((await refresh()).status).toBe(200);
    sim.clock.advance(184 * 86_400_000);
    expect((await refresh()).body).toEqual({
      error: 'invalid_grant',
      error_description: 'Token has been expired or revoked.',
    });
    sim.clock.reset();
    await control(sim, 'config', { testingMode: true });
    const t2 = await link(sim, 'p-testing.n.mac');
    sim.clock.advance(8 * 86_400_000);
    const r = await tokenRequest(sim, {
      grant_type: 'refresh_token',
      refresh_token: t2.refresh_token!,
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
    });
    expect(r.status).toBe(400);
    sim.clock.reset();
    await control(sim, 'reset');
  });

  it('openid: an id_token whose sub is not the healthUserId, and userinfo; access_token as a query parameter', async () => {
    const t = await link(sim, 'p-openid.n.mac', ['openid', 'email', scopeOf('settings')]);
    const body = t as unknown as { id_token: string };
    const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString());
    expect(claims.aud).toBe(CLIENT.clientId);
    expect(claims.sub).toMatch(/^\d{21}$/);
    expect(claims.sub).not.toBe(t.account);
    const info = await fetch(`${sim.base}/oauth2/v3/userinfo`, {
      headers: { authorization: `Bearer ${t.access_token}` },
    });
    expect(await info.json()).toEqual({
      sub: claims.sub,
      email: `participant.${t.account}@example.com`,
      email_verified: true,
    });
    const q = await fetch(
      `${sim.base}/v4/users/me/settings?access_token=${encodeURIComponent(t.access_token)}`,
    );
    expect(q.status).toBe(200);
    // Without openid/email, userinfo refuses.
    const plain = await link(sim, 'p-no-openid.n.mac', [scopeOf('settings')]);
    expect(
      (
        await fetch(`${sim.base}/oauth2/v3/userinfo`, {
          headers: { authorization: `Bearer ${plain.access_token}` },
        })
      ).status,
    ).toBe(401);
  });

  it('one person on both APIs: identity reports the legacy Fitbit user id of the same consent state', async () => {
    const t = await link(sim, '42.nonce.mac');
    const legacy = fitbitUserId(`${LEGACY_CLIENT}:42`);
    const id = await api(sim, t.access_token, '/v4/users/me/identity');
    expect(id.body).toEqual({
      name: 'users/me/identity',
      healthUserId: googleHealthUserId(legacy),
      legacyUserId: legacy,
    });
    expect(id.body.healthUserId).toMatch(/^\d+$/);
    expect(t.account).toBe(id.body.healthUserId);
    // The legacy simulator signs the same state in as that legacy user.
    const page = await fetch(
      `${sim.base.replace('google-health', 'fitbit')}/oauth2/authorize?${form({ client_id: LEGACY_CLIENT, response_type: 'code', scope: 'activity', state: '42.other.mac' })}`,
    );
    expect(await page.text()).toContain(`name="account" value="${legacy}"`);
    // A user without a legacy account: legacyUserId absent.
    await control(sim, 'user', { userId: id.body.healthUserId, legacyUserId: null });
    expect((await api(sim, t.access_token, '/v4/users/me/identity')).body).toEqual({
      name: 'users/me/identity',
      healthUserId: id.body.healthUserId,
    });
    await control(sim, 'reset');
  });
});
