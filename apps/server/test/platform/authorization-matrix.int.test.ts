/*
 * Generated from the contract's API_ACCESS table, which lists every /api
 * route (route-table.int.test.ts proves it): a public route never asks for a
 * session; every other route is refused (401) without a session and (403)
 * for each role it does not list, and is not refused for the roles it
 * lists. Other-team access (404) is covered per feature, where real ids exist.
 * Participant sessions (issue #14) are their own kind: a participant passes
 * the 'participant' routes only (401 on every staff route, as signed out),
 * and no staff session passes a 'participant' route.
 */
import {
  API_ACCESS,
  type ApiAccess,
  type ApiRoute,
  ROLES,
  roleAllows,
  STATE_CHANGING_GETS,
} from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAfterResponse } from '../../src/mail/after-response.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp, type TestClient } from '../support/test-app.js';

describe('API authorization matrix', () => {
  let t: TestApp;
  let f: TeamFixture;
  let ids: Record<string, number | string>;
  let participant: TestClient;
  beforeAll(async () => {
    t = await createTestApp();
    f = await teamWithRoles(t, 'Matrix Team', { hiddenFields: [] });
    const trialId = (await f.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'M' })).json()
      .trialId;
    const participantId = (
      await f.as.Admin.post('/api/trialParticipants', { trialId, email: 'm@x.example' })
    ).json().participantId;
    // Device-data routes: the spec's unused :email segment, an allow-listed resource path, a Dexcom resource.
    ids = {
      trialId,
      participantId,
      teamId: f.teamId,
      email: '-',
      resourcePath: encodeURIComponent('/activities/steps/date/2026-01-01/2026-01-07.json'),
      query: 'egvs',
      linkId: 999999,
      alertId: 999999,
    };
    const account = { username: 'matrix-participant', password: 'Patient-pw1!' };
    await t.client().post('/api/Participants/signup', {
      ...account,
      confirmPassword: account.password,
      email: 'matrix-participant@x.example',
    });
    await settleAfterResponse();
    participant = t.client();
    expect((await participant.post('/api/participantAuth/login', account)).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  const entries = Object.entries(API_ACCESS) as Array<[string, ApiAccess]>;
  const url = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => String(ids[name]));
  const body = () => ({
    trialId: ids.trialId,
    id: ids.participantId,
    suffix: null,
    userId: 999999,
    userEmail: 'nobody@x.example',
  });

  const call = async (client: ReturnType<TestApp['client']>, route: string) => {
    const [method, path] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
    // The spec's state-changing GETs need the CSRF header like any write.
    const headers = STATE_CHANGING_GETS.includes(route as ApiRoute)
      ? { 'x-csrf-token': await client.csrfToken() }
      : undefined;
    return client.request(method, url(path), method === 'GET' ? undefined : body(), { headers });
  };
  /** A refusal by role, as opposed to a refusal of the input or of the state (e.g. "already validated"). */
  const refusedByRole = (res: { statusCode: number; json: () => { message?: string; reason?: string } }) =>
    res.statusCode === 403 && res.json().reason === 'Forbidden' && res.json().message === 'Unauthorized';

  it.each(entries.filter(([, a]) => a === 'public'))('%s (public)', async (route) => {
    const anonymous = await call(t.client(), route);
    expect(anonymous.statusCode, anonymous.body).not.toBe(401);
    expect(refusedByRole(anonymous)).toBe(false);
  });

  /** Routes that end every session of the caller: they run with their own signed-in users. */
  const endsSessions = new Set(['POST /api/auth/logoutEverywhere']);

  it.each(entries.filter(([, a]) => a !== 'public'))('%s', async (route, access) => {
    const anonymous = await call(t.client(), route);
    expect(anonymous.statusCode).toBe(401);
    const asParticipant = await call(participant, route);
    if (access === 'participant') {
      expect(asParticipant.statusCode, asParticipant.body).not.toBe(401);
      expect(asParticipant.statusCode, asParticipant.body).not.toBe(403);
      for (const role of ROLES) expect((await call(f.as[role], route)).statusCode, role).toBe(401);
      return;
    }
    expect(asParticipant.statusCode, 'a participant session on a staff route').toBe(401);
    const as = endsSessions.has(route) ? (await teamWithRoles(t, `Matrix ${route}`)).as : f.as;
    for (const role of ROLES) {
      // Writes run against throwaway input, so allowed calls may 400/404/409: only 403 "Unauthorized" means "refused by role".
      const res = await call(as[role], route);
      const allowed =
        access === 'any' ||
        access === 'session' ||
        roleAllows(role, access as readonly (typeof ROLES)[number][]);
      if (allowed) expect(refusedByRole(res), `${role} ${res.body}`).toBe(false);
      else {
        expect(res.statusCode, role).toBe(403);
        expect(res.json()).toMatchObject({ message: 'Unauthorized', reason: 'Forbidden' });
      }
    }
  });
});
