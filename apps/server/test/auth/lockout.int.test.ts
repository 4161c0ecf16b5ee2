import { ACCOUNT_LOCKED, SFA_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlockUser } from '../../src/features/auth/lockout.js';
import { FIXTURE_PASSWORD, identityTeams, type NewTestUser } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('identity: lockout', () => {
  let t: TestApp;
  let newUser: NewTestUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ newUser } = await identityTeams(t));
  });
  afterAll(() => t.close());

  it('five wrong passwords lock the account; unlock restores it', async () => {
    const u = await newUser({ sfa: false });
    const c = t.client();
    for (let i = 0; i < 4; i++)
      expect(
        (await c.post('/api/auth/login', { username: u.username, password: 'Wrong-pw1!' })).statusCode,
      ).toBe(401);
    const locked = await c.post('/api/auth/login', { username: u.username, password: 'Wrong-pw1!' });
    expect(locked.statusCode).toBe(423);
    expect(locked.json()).toMatchObject({
      message: SFA_MESSAGES.locked,
      reason: ACCOUNT_LOCKED,
      displayToUser: true,
    });
    expect(
      (await c.post('/api/auth/login', { username: u.username, password: FIXTURE_PASSWORD })).statusCode,
    ).toBe(423);
    await unlockUser(t.ctx, u.id);
    expect((await c.login(u.username, FIXTURE_PASSWORD)).message).toBe('Authorized');
  });
});
