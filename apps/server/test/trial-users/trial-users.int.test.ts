import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('trial users', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let trialId: number;
  beforeAll(async () => {
    t = await createTestApp();
    a = await teamWithRoles(t, 'TU A');
    b = await teamWithRoles(t, 'TU B');
    trialId = (await a.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'One' })).json()
      .trialId;
  });
  afterAll(() => t.close());

  it('lists team users, adds and removes a trial user; owner stays', async () => {
    const team = (await a.as.Admin.get(`/api/teamUsers/${trialId}`)).json();
    expect(team).toHaveLength(4);
    const viewer = team.find((u: { role: string }) => u.role === 'Viewer');
    const added = await a.as.Admin.post('/api/trialUsers', {
      userEmail: viewer.email.toUpperCase(),
      trialId,
    });
    expect(added.json()).toEqual({ data: { userId: viewer.id, userEmail: viewer.email } });
    const again = await a.as.Admin.post('/api/trialUsers', { userEmail: viewer.email, trialId });
    expect(again.statusCode).toBe(409);
    const users = (await a.as.Admin.get(`/api/trialUsers/${trialId}`)).json();
    expect(users.map((u: { id: number; isOwner: boolean }) => [u.id, u.isOwner])).toEqual([
      [a.userIds.Admin, true],
      [viewer.id, false],
    ]);
    const owner = await a.as.Admin.delete('/api/trialUsers', { userId: a.userIds.Admin, trialId });
    expect(owner.statusCode).toBe(409);
    expect(
      (await a.as.Admin.delete('/api/trialUsers', { userId: viewer.id, userEmail: viewer.email, trialId }))
        .statusCode,
    ).toBe(200);
    expect((await a.as.Admin.get(`/api/trialUsers/${trialId}`)).json()).toHaveLength(1);
  });

  it('email rules; users of other teams cannot be added; User/Viewer are refused', async () => {
    const bad = await a.as.Admin.post('/api/trialUsers', { userEmail: '', trialId });
    expect(bad.json().errors[0].message).toBe('Email is required');
    const invalid = await a.as.Admin.post('/api/trialUsers', { userEmail: 'x@', trialId });
    expect(invalid.json().errors[0].message).toBe('Email is invalid');
    const outsider = (await b.as.Admin.get('/api/auth/user')).json().user.email;
    const res = await a.as.Admin.post('/api/trialUsers', { userEmail: outsider, trialId });
    expect(res.statusCode).toBe(404);
    for (const role of ['User', 'Viewer'] as const) {
      expect((await a.as[role].get(`/api/trialUsers/${trialId}`)).statusCode).toBe(403);
      expect((await a.as[role].post('/api/trialUsers', { userEmail: outsider, trialId })).statusCode).toBe(
        403,
      );
    }
    expect((await b.as.Sys_Admin.get(`/api/trialUsers/${trialId}`)).statusCode).toBe(404);
  });
});
