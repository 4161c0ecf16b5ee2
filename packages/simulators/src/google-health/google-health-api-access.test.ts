/*
 * Conformance of the Google Health simulator's REST surface with
 * google-health-api.md §3–§4, over real HTTP: data types (unknown,
 * malformed, list refused), routing before authentication, the rate limit,
 * injected failures, accounts not linked to Fitbit, and profile and
 * settings.
 */
import { describe, expect, it } from 'vitest';
import { account, expectError, list, sim, token, useRestSuite } from './rest-suite.js';
import { api, control, gdate, type Json, link, scopeOf } from './test-kit.js';

describe(
  'Google Health simulator: REST surface, data types, authentication, limits and profile',
  { timeout: 30_000 },
  () => {
    useRestSuite();

    it('data types: unknown, malformed, list refused for total-calories and floors (configurable)', async () => {
      expectError(
        await api(sim, token, list('nope', {})),
        400,
        'INVALID_ARGUMENT',
        'INVALID_PARENT_DATA_TYPE_COLLECTION',
      );
      expectError(
        await api(sim, token, list('Heart_Rate', {})),
        400,
        'INVALID_ARGUMENT',
        'INVALID_PARENT_DATA_TYPE_COLLECTION_FORMAT',
      );
      expect(expectError(await api(sim, token, list('total-calories', {})), 400, 'INVALID_ARGUMENT')).toBe(
        'List is not supported for data type total-calories, but the following actions are supported: rollup, dailyRollup',
      );
      expectError(await api(sim, token, list('floors', {})), 400, 'INVALID_ARGUMENT');
      await control(sim, 'config', { floorsList: true });
      expect((await api(sim, token, list('floors', { pageSize: '5' }))).status).toBe(200);
      // activity-level roll-ups follow the proto by default; off, they are refused.
      await control(sim, 'config', { activityLevelRollUps: false });
      const al = await api(sim, token, '/v4/users/me/dataTypes/activity-level/dataPoints:dailyRollUp', {
        range: { start: { date: gdate('2026-11-10') }, end: { date: gdate('2026-11-11') } },
      });
      expectError(al, 400, 'INVALID_ARGUMENT');
    });

    it('routing before authentication: unknown paths 404 even without a token; known paths 401 without one', async () => {
      const nf = await fetch(`${sim.base}/v4/users/me/nothing`);
      expect(nf.status).toBe(404);
      expect(((await nf.json()) as Json).error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
      expect((await fetch(`${sim.base}/v4/users/me/dataTypes/steps/dataPoints`)).status).toBe(401);
      // Another user's data: 403.
      expectError(await api(sim, token, '/v4/users/123/settings'), 403, 'PERMISSION_DENIED');
      expect((await api(sim, token, `/v4/users/${account}/settings`)).status).toBe(200);
    });

    it('rate limit: 429 RESOURCE_EXHAUSTED past the per-user minute quota, without Retry-After (configurable)', async () => {
      await control(sim, 'config', { requestsPerUserPerMinute: 3 });
      for (let i = 0; i < 3; i++) expect((await api(sim, token, '/v4/users/me/identity')).status).toBe(200);
      const r = await api(sim, token, '/v4/users/me/identity');
      expectError(r, 429, 'RESOURCE_EXHAUSTED', 'RATE_LIMIT_EXCEEDED');
      expect(r.headers.get('retry-after')).toBeNull();
      await control(sim, 'config', { retryAfterOn429: true });
      const r2 = await api(sim, token, '/v4/users/me/identity');
      expect(Number(r2.headers.get('retry-after'))).toBeGreaterThan(0);
      // The next minute is a new window.
      sim.clock.advance(60_000);
      expect((await api(sim, token, '/v4/users/me/identity')).status).toBe(200);
      await control(sim, 'exhaust-rate-limit', { userId: account });
      expect((await api(sim, token, '/v4/users/me/identity')).status).toBe(429);
      await control(sim, 'reset-rate-limit');
      expect((await api(sim, token, '/v4/users/me/identity')).status).toBe(200);
    });

    it('injected failures: 429 with Retry-After when asked, 503 UNAVAILABLE, then normal again; calls are counted', async () => {
      await control(sim, 'fail-next', { count: 1, status: 429, retryAfterSeconds: 30 });
      const r = await api(sim, token, '/v4/users/me/identity');
      expectError(r, 429, 'RESOURCE_EXHAUSTED');
      expect(r.headers.get('retry-after')).toBe('30');
      await control(sim, 'fail-next', { count: 2, status: 503 });
      expectError(await api(sim, token, '/v4/users/me/identity'), 503, 'UNAVAILABLE');
      expectError(await api(sim, token, '/v4/users/me/identity'), 503, 'UNAVAILABLE');
      expect((await api(sim, token, '/v4/users/me/identity')).status).toBe(200);
      const calls = (await (await fetch(`${sim.base}/_control/calls?userId=${account}`)).json()) as Json;
      expect(calls.calls).toBe(4);
    });

    it('a Google account not linked to a Fitbit account: 400 ACCOUNT_NOT_LINKED on every data call', async () => {
      await control(sim, 'user', { userId: account, notLinked: true });
      const r = await api(sim, token, list('steps', {}));
      expect(expectError(r, 400, 'INVALID_ARGUMENT', 'ACCOUNT_NOT_LINKED')).toBe(
        'The Google account is not linked to a Fitbit account.',
      );
      await control(sim, 'reset');
      expect((await api(sim, token, '/v4/users/me/identity')).status).toBe(200);
    });

    it('profile and settings: the shapes of §3.7; settings need the settings scope', async () => {
      const profile = await api(sim, token, '/v4/users/me/profile');
      expect(profile.body).toMatchObject({
        name: 'users/me/profile',
        membershipStartDate: { year: 2023, month: 1, day: 10 },
      });
      expect(Number.isInteger(profile.body.age)).toBe(true);
      const t = await link(sim, 'api-noscope.n.m', [scopeOf('activity_and_fitness')]);
      expectError(
        await api(sim, t.access_token, '/v4/users/me/settings'),
        403,
        'PERMISSION_DENIED',
        'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
      );
      expectError(await api(sim, t.access_token, '/v4/users/me/pairedDevices'), 403, 'PERMISSION_DENIED');
      // Identity accepts any read scope.
      expect((await api(sim, t.access_token, '/v4/users/me/identity')).status).toBe(200);
    });
  },
);
