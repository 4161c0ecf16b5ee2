/*
 * Issue #9, finding 1: a Sys_Admin sees the locked accounts of the teams they
 * administer and unlocks them (beside the CLI), audited; other teams' users
 * are out of reach.
 */
import { LOCKOUT_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, FIXTURE_PASSWORD, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const clock = testClock('2026-05-04T08:00:00Z');
const MIN = 60_000;

describe('locked accounts: the Sys_Admin unlock', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
  });
  afterAll(() => t.close());

  const lock = async (username: string) => {
    for (let i = 0; i < 5; i++)
      await t.client().post('/api/auth/login', { username, password: 'Wrong-pw1!' });
  };

  it('lists the locked accounts of the own teams only and unlocks them, with an audit row', async () => {
    const a = await teamWithRoles(t, 'Unlock A');
    const b = await teamWithRoles(t, 'Unlock B');
    const victim = await createTestUser(t, { teamId: a.teamId, sfa: false, lastName: 'Victim' });
    const stranger = await createTestUser(t, { teamId: b.teamId, sfa: false });
    const notLocked = await createTestUser(t, { teamId: a.teamId, sfa: false });
    await lock(victim.username);
    await lock(stranger.username);
    await lock('nobody-at-all');
    const admin = a.as.Sys_Admin;

    const list = await admin.get('/api/users/locked');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      {
        id: victim.id,
        userName: victim.username,
        email: victim.email,
        first_name: 'Test',
        last_name: 'Victim',
        locked_until: new Date(clock.now().getTime() + 15 * MIN).toISOString(),
        lock_count: 1,
        teams: ['Unlock A'],
      },
    ]);
    expect((await a.as.Admin.get('/api/users/locked')).statusCode).toBe(403);
    expect((await a.as.Admin.post(`/api/users/${victim.id}/unlock`)).statusCode).toBe(403);

    // Another team's user: not found; an account that is not locked: conflict.
    const foreign = await admin.post(`/api/users/${stranger.id}/unlock`);
    expect(foreign.statusCode).toBe(404);
    const open = await admin.post(`/api/users/${notLocked.id}/unlock`);
    expect(open.statusCode).toBe(409);
    expect(open.json()).toMatchObject({ message: LOCKOUT_MESSAGES.notLocked, displayToUser: true });

    const ok = await admin.post(`/api/users/${victim.id}/unlock`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, message: LOCKOUT_MESSAGES.unlocked });
    expect((await admin.get('/api/users/locked')).json()).toEqual([]);
    expect((await t.client().login(victim.username, FIXTURE_PASSWORD)).message).toBe('Authorized');
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['user_id', 'team_id', 'entity_type', 'entity_id'])
      .where('action', '=', 'auth.unlocked')
      .execute();
    expect(audit).toEqual([
      { user_id: a.userIds.Sys_Admin, team_id: a.teamId, entity_type: 'user', entity_id: String(victim.id) },
    ]);

    // The other team's Sys_Admin sees (only) their own locked account.
    expect((await b.as.Sys_Admin.get('/api/users/locked')).json().map((u: { id: number }) => u.id)).toEqual([
      stranger.id,
    ]);
    // A lock that has ended by itself is no longer listed.
    clock.advance(15 * MIN + 1000);
    expect((await b.as.Sys_Admin.get('/api/users/locked')).json()).toEqual([]);
  });
});
