/*
 * Issue #9, finding 3 (sessions and audit): plain logout ends only its own
 * session and is audited; "log out everywhere" ends them all and forgets
 * remembered devices; failed sign-ins for unknown usernames are audited.
 */
import { SESSION_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpAt } from '../../src/features/sfa/totp.js';
import { auditRows } from '../support/audit.js';
import { FIXTURE_PASSWORD, identityTeams, type NewTestUser } from '../support/fixtures.js';
import { createTestApp, SIGNED_OUT, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const clock = testClock('2026-05-04T08:00:00Z');

describe('identity: logout, log out everywhere, audit', () => {
  let t: TestApp;
  let newUser: NewTestUser;
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    ({ newUser } = await identityTeams(t));
  });
  afterAll(() => t.close());

  const auditOf = (action: string) => auditRows(t.ctx.db, action, ['user_id', 'entity_id', 'after', 'ip']);

  it('plain logout ends only this session, and is audited', async () => {
    const u = await newUser({ sfa: false });
    const here = t.client();
    const there = t.client();
    await here.login(u.username, FIXTURE_PASSWORD);
    await there.login(u.username, FIXTURE_PASSWORD);
    const res = await here.post('/api/auth/logout');
    expect(res.json()).toEqual({ success: true, message: SESSION_MESSAGES.loggedOut });
    expect((await here.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
    expect((await there.get('/api/auth/user')).statusCode).toBe(200);
    expect(await auditOf('auth.logout')).toEqual([
      { user_id: u.id, entity_id: String(u.id), after: null, ip: here.ip },
    ]);
  });

  it('log out everywhere ends every session of the user and forgets remembered devices', async () => {
    const u = await newUser();
    const here = t.client();
    expect((await here.login(u.username, FIXTURE_PASSWORD)).message).toBe('SFAIsNotSet');
    const { key } = (await here.get('/api/auth/secondFactorSetup')).json();
    await here.post('/api/auth/verifyTOTP', { sfaToken: totpAt(key, clock.now()) });
    clock.advance(30_000);
    await here.login(u.username, FIXTURE_PASSWORD);
    await here.post('/api/auth/validateTOTP', { sfaToken: totpAt(key, clock.now()), skipSFA: true });
    const there = t.client();
    await there.login(u.username, FIXTURE_PASSWORD);
    clock.advance(30_000);
    await there.post('/api/auth/validateTOTP', { sfaToken: totpAt(key, clock.now()) });
    const partial = t.client();
    await partial.login(u.username, FIXTURE_PASSWORD); // second factor pending
    expect((await there.get('/api/auth/user')).statusCode).toBe(200);

    // A partial session may not do it: only a full sign-in.
    expect((await partial.post('/api/auth/logoutEverywhere')).statusCode).toBe(403);
    const res = await here.post('/api/auth/logoutEverywhere');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: SESSION_MESSAGES.loggedOutEverywhere });
    for (const c of [here, there, partial])
      expect((await c.get('/api/auth/user')).json()).toEqual(SIGNED_OUT);
    // The device remembered by `here` asks for the second factor again.
    expect((await here.login(u.username, FIXTURE_PASSWORD)).message).toBe('SFAValidateCodeNeeded');
    expect(await auditOf('auth.logout.everywhere')).toEqual([
      { user_id: u.id, entity_id: String(u.id), after: null, ip: here.ip },
    ]);
  });

  it('failed sign-ins are audited, for unknown usernames too', async () => {
    const u = await newUser({ sfa: false });
    const c = t.client();
    await c.post('/api/auth/login', { username: u.username, password: 'Wrong-pw1!' });
    await c.post('/api/auth/login', { username: 'No-Such-Person', password: 'Wrong-pw1!' });
    expect((await auditOf('auth.password.failed')).slice(-2)).toEqual([
      {
        user_id: u.id,
        entity_id: String(u.id),
        after: { username: u.username, failedAttempts: 1 },
        ip: c.ip,
      },
      { user_id: null, entity_id: null, after: { username: 'no-such-person', failedAttempts: 1 }, ip: c.ip },
    ]);
  });
});
