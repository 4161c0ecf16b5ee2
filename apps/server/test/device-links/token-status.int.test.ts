/*
 * GET /api/participantDevices/{id}/{provider}/token: the token management
 * pages' answer — status, scopes, expiry, last change — never the token;
 * Sys_Admin and Admin only; another team's participant is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant } from '../support/linked-participant.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('token status', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let trialId: number;
  let otherPid: number;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    a = await teamWithRoles(t, 'Token A', { hiddenFields: [] });
    b = await teamWithRoles(t, 'Token B', { hiddenFields: [] });
    trialId = (await a.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Tok' })).json()
      .trialId;
    const trialB = (await b.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Tok' })).json()
      .trialId;
    otherPid = (
      await b.as.Admin.post('/api/trialParticipants', { trialId: trialB, email: 'tok-b@x.example' })
    ).json().participantId;
  });
  afterAll(() => t.close());

  const url = (id: number, provider = 'fitbit') => `/api/participantDevices/${id}/${provider}/token`;
  let participants = 0;
  /** A participant of the test's own, not linked. */
  const newParticipant = async () => {
    participants += 1;
    return (
      await a.as.Admin.post('/api/trialParticipants', { trialId, email: `tok${participants}@x.example` })
    ).json().participantId as number;
  };

  it('not linked: status none, no scopes, no expiry', async () => {
    const pid = await newParticipant();
    const res = await a.as.Admin.get(url(pid));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'none',
      authorizationDate: null,
      revokeAvailable: true,
      api: null,
      reconsentRequired: false,
      scopes: [],
      expiresAt: null,
      tokenUpdatedAt: null,
      refreshable: false,
    });
  });

  it('linked: scopes, expiry and last change, never a token; refresh moves the last change', async () => {
    const pid = await newParticipant();
    await linkParticipant(t, a, pid, 'fitbit');
    const res = await a.as.Sys_Admin.get(url(pid));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'authorized', refreshable: true });
    expect(body.scopes.length).toBeGreaterThan(0);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
    expect(Object.keys(body).sort()).toEqual(
      [
        'api',
        'authorizationDate',
        'expiresAt',
        'reconsentRequired',
        'refreshable',
        'revokeAvailable',
        'scopes',
        'status',
        'tokenUpdatedAt',
      ].sort(),
    );
    expect((await a.as.Admin.post('/api/fitbitRefreshToken', { id: pid })).statusCode).toBe(200);
    const after = (await a.as.Admin.get(url(pid))).json();
    expect(Date.parse(after.tokenUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(body.tokenUpdatedAt));

    const revoked = await a.as.Admin.request('GET', `/api/revokeAccessToken/${pid}`, undefined, {
      headers: { 'x-csrf-token': await a.as.Admin.csrfToken() },
    });
    expect(revoked.statusCode).toBe(200);
    expect((await a.as.Admin.get(url(pid))).json()).toMatchObject({
      status: 'revoked',
      scopes: [],
      expiresAt: null,
    });
  });

  it("Omron's token answers carry no scope: the page shows the scope asked for, kept through a refresh", async () => {
    const pid = await newParticipant();
    await linkParticipant(t, a, pid, 'omron');
    const asked = t.ctx.providers.omron.settings.scopes;
    expect(asked).toEqual(['openid', 'offline_access', 'bloodpressure', 'weight', 'activity']);
    expect((await a.as.Admin.get(url(pid, 'omron'))).json().scopes).toEqual(asked);
    const refreshed = await a.as.Admin.post('/api/omronRefreshToken', { id: pid });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const after = (await a.as.Admin.get(url(pid, 'omron'))).json();
    expect(after.scopes).toEqual(asked);
  });

  it('User and Viewer are refused; another team gets 404; signed out gets 401', async () => {
    const pid = await newParticipant();
    expect((await a.as.User.get(url(pid))).statusCode).toBe(403);
    expect((await a.as.Viewer.get(url(pid))).statusCode).toBe(403);
    expect((await a.as.Admin.get(url(otherPid, 'omron'))).statusCode).toBe(404);
    expect((await b.as.Admin.get(url(pid))).statusCode).toBe(404);
    expect((await t.client().get(url(pid))).statusCode).toBe(401);
  });
});
