/*
 * CSRF tokens are bound to the session they were issued for: a token from
 * another session, or one fetched before signing in, is refused; signing in
 * hands out a new one. Over https the cookies carry the __Host- prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PASSWORD, type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('CSRF tokens bound to the session', () => {
  let t: TestApp;
  let f: TeamFixture;
  let trialId: number;
  beforeAll(async () => {
    t = await createTestApp();
    f = await teamWithRoles(t, 'Csrf Session Team', { hiddenFields: [] });
    trialId = (await f.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'S' })).json().trialId;
  });
  afterAll(() => t.close());

  /** A participant add by the Admin's session, with the given CSRF token in both cookie and header. */
  const addWith = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/trialParticipants',
      headers: {
        cookie: `${f.as.Admin.cookieHeader().replace(/tw_csrf=[^;]*/, '')}; tw_csrf=${token}`,
        'x-csrf-token': token,
      },
      payload: { trialId, email: `x${Math.random()}@s.example` },
    });

  it("the session's own token works", async () => {
    expect((await addWith(await f.as.Admin.csrfToken())).statusCode).toBe(200);
  });

  it("another user's session token is refused", async () => {
    const res = await addWith(await f.as.User.csrfToken());
    expect(res.statusCode).toBe(403);
    expect(res.json().reason).toBe('CsrfError');
  });

  it('a token fetched without a session (e.g. by an attacker) is refused on a session', async () => {
    const anonymous = t.client();
    const res = await addWith(await anonymous.csrfToken());
    expect(res.statusCode).toBe(403);
    expect(res.json().reason).toBe('CsrfError');
  });

  it('signing in issues a new token for the new session', async () => {
    const client = t.client();
    const before = await client.csrfToken();
    const { username } = await t.ctx.db
      .selectFrom('users')
      .select('username')
      .where('id', '=', f.userIds.Viewer)
      .executeTakeFirstOrThrow();
    const login = await client.post('/api/auth/login', { username, password: FIXTURE_PASSWORD });
    expect(login.statusCode).toBe(200);
    const after = await client.csrfToken();
    expect(after).not.toBe(before);
    expect((await client.post('/api/auth/refreshToken')).statusCode).toBe(200);
  });
});

describe('cookies over https', () => {
  it('carry the __Host- prefix, Secure and Path=/', async () => {
    const t = await createTestApp({ env: { PUBLIC_URL: 'https://portal.example' } });
    try {
      const f = await teamWithRoles(t, 'Https Team');
      const { username } = await t.ctx.db
        .selectFrom('users')
        .select('username')
        .where('id', '=', f.userIds.Admin)
        .executeTakeFirstOrThrow();
      const client = t.client();
      const csrf = await t.app.inject({ method: 'GET', url: '/api/csrf-token' });
      expect(csrf.cookies.map((c) => c.name)).toEqual(['__Host-tw_csrf']);
      const login = await client.post('/api/auth/login', { username, password: FIXTURE_PASSWORD });
      expect(login.statusCode).toBe(200);
      const cookies = login.cookies as Array<{
        name: string;
        secure?: boolean;
        path?: string;
        domain?: string;
      }>;
      for (const name of ['__Host-tw_session', '__Host-tw_csrf']) {
        const c = cookies.find((x) => x.name === name);
        expect(c, name).toMatchObject({ secure: true, path: '/' });
        expect(c?.domain).toBeUndefined();
      }
      expect(cookies.some((c) => c.name === 'tw_session')).toBe(false);
      // And the prefixed session works for the next call.
      expect((await client.get('/api/auth/user')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
