/*
 * Generated from the contract's API_ACCESS table: every guarded route is
 * refused (401) without a session and (403) for each role it does not list,
 * and is not refused for the roles it lists. Other-team access (404) is
 * covered per feature, where real ids exist.
 */
import { API_ACCESS, type ApiAccess, ROLES, roleAllows } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('API authorization matrix', () => {
  let t: TestApp;
  let f: TeamFixture;
  let ids: Record<string, number>;
  beforeAll(async () => {
    t = await createTestApp();
    f = await teamWithRoles(t, 'Matrix Team', { hiddenFields: [] });
    const trialId = (await f.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'M' })).json()
      .trialId;
    const participantId = (
      await f.as.Admin.post('/api/trialParticipants', { trialId, email: 'm@x.example' })
    ).json().participantId;
    ids = { trialId, participantId, teamId: f.teamId };
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

  it.each(entries.filter(([, a]) => a !== 'public'))('%s', async (route, access) => {
    const [method, path] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
    const anonymous = await t.client().request(method, url(path), method === 'GET' ? undefined : body());
    expect(anonymous.statusCode).toBe(401);
    for (const role of ROLES) {
      // Writes run against throwaway input, so allowed calls may 400/404/409: only 403 means "refused by role".
      const res = await f.as[role].request(method, url(path), method === 'GET' ? undefined : body());
      const allowed = access === 'any' || roleAllows(role, access as readonly (typeof ROLES)[number][]);
      // (A state-changing GET may answer 403 CsrfError here: that is not a refusal by role.)
      if (allowed)
        expect(res.statusCode === 403 && res.json().reason === 'Forbidden', `${role} ${res.body}`).toBe(
          false,
        );
      else {
        expect(res.statusCode, role).toBe(403);
        expect(res.json()).toMatchObject({ message: 'Unauthorized', reason: 'Forbidden' });
      }
    }
  });
});
