/*
 * The database refusing connections (issue 27): the app reaches its database
 * through a TCP proxy (support/db-proxy.ts) that the test closes, as a
 * restart or a failover would. Meanwhile every API route answers 503 with the
 * displayable message and Retry-After — signed in or not — and /api/ready
 * answers 503 whatever cookie it carries; once the port opens again the app
 * answers as before by itself (the pool opens new connections).
 */
import { API_ACCESS, SERVICE_UNAVAILABLE } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DbProxy, startDbProxy } from '../support/db-proxy.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { trialWithParticipants } from '../support/linked-participant.js';
import { createTestApp, type TestApp, type TestClient } from '../support/test-app.js';
import { until } from '../support/until.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * The probes answer in their own shape, checked below: liveness 200 "degraded" while the process
 * runs, readiness 503 "not_ready" with the database down.
 */
const PROBES = new Set(['GET /api/health', 'GET /api/ready']);

describe('while the database refuses connections', () => {
  let t: TestApp;
  let proxy: DbProxy;
  let a: TeamFixture;
  let trialId: number;

  beforeAll(async () => {
    const cluster = new URL(inject('adminDatabaseUrl'));
    proxy = await startDbProxy({ host: cluster.hostname, port: Number(cluster.port) });
    t = await createTestApp({ databasePort: proxy.port });
    a = await teamWithRoles(t, 'Outage Team', { hiddenFields: [] });
    ({ trialId } = await trialWithParticipants(a, 'Outage', ['o1@x.example']));
    // The SPA holds its CSRF token before the outage; writes carry it.
    await a.as.Admin.csrfToken();
  }, 60_000);
  afterAll(async () => {
    await proxy?.accept().catch(() => {});
    await t?.close();
    await proxy?.close();
  });

  const expectUnavailable = (res: Awaited<ReturnType<TestClient['get']>>, what: string) => {
    expect(res.statusCode, `${what}: ${res.body}`).toBe(503);
    expect(res.json(), what).toMatchObject({
      message: SERVICE_UNAVAILABLE.message,
      displayToUser: true,
      reason: 'ServiceUnavailable',
    });
    expect(res.headers['retry-after'], what).toBe(String(SERVICE_UNAVAILABLE.retryAfterSeconds));
  };

  it('every API route answers 503 with Retry-After, /api/ready too, and the app recovers by itself', async () => {
    const list = `/api/trialParticipants/${trialId}`;
    const before = await a.as.Admin.get(list);
    expect(before.statusCode, before.body).toBe(200);

    await proxy.refuse();
    try {
      // Signed in: the session lookup already needs the database.
      for (const route of Object.keys(API_ACCESS)) {
        if (PROBES.has(route)) continue;
        const [method, path] = route.split(' ') as [Method, string];
        const url = path.replace(/:[A-Za-z]+/g, '1');
        expectUnavailable(await a.as.Admin.request(method, url, method === 'GET' ? undefined : {}), route);
      }
      // Readiness answers without looking the session up: 503, with or without the cookie.
      const anonymous = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(anonymous.statusCode).toBe(503);
      expect(anonymous.json()).toMatchObject({ status: 'not_ready', database: 'down' });
      const withCookie = await a.as.Admin.get('/api/ready');
      expect(withCookie.statusCode).toBe(503);
      expect(withCookie.json()).toMatchObject({ status: 'not_ready', database: 'down' });
      // Liveness: the process answers, and says what is down.
      const health = await a.as.Admin.get('/api/health');
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ status: 'degraded', database: 'down' });
      // Signed out: a route that needs the database answers the same 503.
      const login = await t.client().post('/api/auth/login', { username: 'nobody', password: 'x' });
      expectUnavailable(login, 'POST /api/auth/login');
    } finally {
      await proxy.accept();
    }

    // Back by itself: no restart, the same session.
    await until(
      async () => (await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode === 200,
      'ready',
      15_000,
    );
    const after = await a.as.Admin.get(list);
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json()).toEqual(before.json());
  }, 120_000);

  it('a connection cut under a request is a 503 for that request, and the next one is answered', async () => {
    const list = `/api/trialParticipants/${trialId}`;
    expect((await a.as.Admin.get(list)).statusCode).toBe(200);
    // Cut every connection (a network blip) and accept new ones at once.
    await proxy.refuse();
    await proxy.accept();
    const statuses = new Set<number>();
    for (let i = 0; i < 20; i++) statuses.add((await a.as.Admin.get(list)).statusCode);
    // Each answer is either the list or the outage message, never a 500; the last is the list.
    expect(
      [...statuses].every((s) => s === 200 || s === 503),
      [...statuses].join(),
    ).toBe(true);
    expect((await a.as.Admin.get(list)).statusCode).toBe(200);
  }, 60_000);
});
