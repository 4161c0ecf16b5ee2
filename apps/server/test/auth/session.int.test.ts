import { LOGIN_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTeam, createTestUser, FIXTURE_PASSWORD } from '../support/fixtures.js';
import { createTestApp, SIGNED_OUT, type TestApp } from '../support/test-app.js';

describe('sign-in and session basics', () => {
  let t: TestApp;
  let teamId: number;
  beforeAll(async () => {
    t = await createTestApp();
    teamId = await createTestTeam(t, 'Cardiology Lab', { hiddenFields: ['notes'] });
    await createTestUser(t, {
      teamId,
      username: 'nora',
      email: 'nora@lab.example',
      firstName: 'Nora',
      lastName: 'North',
      role: 'Admin',
      sfa: false,
    });
    await createTestUser(t, {
      teamId,
      username: 'sfa-user',
      email: 'sfa@lab.example',
      firstName: 'Sef',
      lastName: 'Ay',
      role: 'User',
    });
  });
  afterAll(() => t.close());

  it('GET /api/auth/user without a session → 200 NotSignedIn (being signed out is no error)', async () => {
    const res = await t.client().get('/api/auth/user');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(SIGNED_OUT);
    // The spec's other session call still refuses a signed-out caller.
    expect((await t.client().get('/api/auth/login/')).statusCode).toBe(401);
  });

  it('login validation messages are exact', async () => {
    const res = await t.client().post('/api/auth/login', { username: '', password: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'username', message: LOGIN_MESSAGES.usernameRequired },
      { path: 'password', message: LOGIN_MESSAGES.passwordRequired },
    ]);
  });

  it('wrong password and unknown user get the same displayable 401', async () => {
    const a = await t.client().post('/api/auth/login', { username: 'nora', password: 'Wrong-pw1!' });
    const b = await t.client().post('/api/auth/login', { username: 'nobody', password: 'Wrong-pw1!' });
    for (const res of [a, b]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message: LOGIN_MESSAGES.invalidCredentials, displayToUser: true });
    }
  });

  it('a user without second factor is Authorized, with team and role from the membership', async () => {
    const c = t.client();
    const body = await c.login('NORA', FIXTURE_PASSWORD);
    expect(body.message).toBe('Authorized');
    expect(body.user).toMatchObject({
      userName: 'nora',
      first_name: 'Nora',
      role: 'Admin',
      team_id: teamId,
      team_name: 'Cardiology Lab',
      team_status: 'Active',
    });
    const me = await c.get('/api/auth/user');
    expect(me.statusCode).toBe(200);
    expect(me.json().user.role).toBe('Admin');
    expect((await c.get('/api/auth/login/')).json().user.team_id).toBe(teamId);
    const cookie = (me.cookies as Array<{ name: string }>).length; // no new cookies on a read
    expect(cookie).toBe(0);
  });

  it('the session cookie is HttpOnly and SameSite', async () => {
    const res = await t.client().post('/api/auth/login', { username: 'nora', password: FIXTURE_PASSWORD });
    const session = (res.cookies as Array<{ name: string; httpOnly?: boolean; sameSite?: string }>).find(
      (c) => c.name === 'tw_session',
    );
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
  });

  it('a user whose second factor is pending gets 403 with the status and the partial user', async () => {
    const c = t.client();
    const body = await c.login('sfa-user', FIXTURE_PASSWORD);
    expect(body.message).toBe('SFAIsNotSet');
    const me = await c.get('/api/auth/user');
    expect(me.statusCode).toBe(403);
    expect(me.json()).toMatchObject({ message: 'SFAIsNotSet', user: { userName: 'sfa-user' } });
    // ...and cannot reach calls that need a full session.
    expect((await c.post('/api/auth/refreshToken')).statusCode).toBe(403);
  });

  it('logout ends the session', async () => {
    const c = t.client();
    await c.login('nora', FIXTURE_PASSWORD);
    expect((await c.post('/api/auth/refreshToken')).statusCode).toBe(200);
    expect((await c.post('/api/auth/logout')).statusCode).toBe(200);
    expect((await c.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
  });

  it('bumping token_version ends every session of that user', async () => {
    const c1 = t.client();
    const c2 = t.client();
    await c1.login('nora', FIXTURE_PASSWORD);
    await c2.login('nora', FIXTURE_PASSWORD);
    await t.ctx.db
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
      .where('username', '=', 'nora')
      .execute();
    expect((await c1.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
    expect((await c2.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
  });
});

describe('session expiry', () => {
  it('an idle session expires after 30 minutes; refresh slides it; 12 hours is the limit', async () => {
    let now = new Date('2026-03-01T09:00:00Z');
    const t = await createTestApp({ now: () => now });
    try {
      const teamId = await createTestTeam(t, 'Clock Team');
      await createTestUser(t, {
        teamId,
        username: 'tick',
        email: 'tick@x.example',
        firstName: 'Ti',
        lastName: 'Ck',
        role: 'User',
        sfa: false,
      });
      const c = t.client();
      await c.login('tick', FIXTURE_PASSWORD);
      // Refresh every 15 minutes (as the SPA does) for almost 12 hours: still signed in.
      for (let minutes = 15; minutes < 12 * 60; minutes += 15) {
        now = new Date(Date.parse('2026-03-01T09:00:00Z') + minutes * 60_000);
        expect((await c.post('/api/auth/refreshToken')).statusCode, `${minutes} min`).toBe(200);
      }
      now = new Date('2026-03-01T21:00:00Z'); // 12 hours after sign-in
      const expired = await c.post('/api/auth/refreshToken');
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toMatchObject({
        message: 'Your session has expired. Please sign in again.',
        displayToUser: true,
      });
      expect((await c.get('/api/auth/user')).json()).toEqual(SIGNED_OUT); // the expired session is gone

      const d = t.client();
      now = new Date('2026-03-02T09:00:00Z');
      await d.login('tick', FIXTURE_PASSWORD);
      now = new Date('2026-03-02T09:29:00Z');
      expect((await d.get('/api/auth/user')).statusCode).toBe(200);
      now = new Date('2026-03-02T09:31:00Z'); // 31 minutes idle
      expect((await d.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
    } finally {
      await t.close();
    }
  });
});
