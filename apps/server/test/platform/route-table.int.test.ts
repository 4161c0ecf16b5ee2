/*
 * The one authorization path: every /api route the app registers is in the
 * contract's API_ACCESS table (so the authorization matrix, generated from
 * the table, covers every route), every table entry is a real route, and an
 * undeclared route cannot even be registered.
 */
import { API_ACCESS } from '@trialwear/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRouteAccess } from '../../src/http/route-access.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('API route table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists every registered /api route, and nothing that is not one', () => {
    const registered = [...new Set(t.app.apiRoutes)].sort();
    expect(registered.length).toBeGreaterThan(60);
    expect(registered).toEqual(Object.keys(API_ACCESS).sort());
  });

  it('refuses to register an /api route that is not in the table', async () => {
    const app = Fastify();
    registerRouteAccess(app);
    expect(() => app.get('/api/notDeclaredAnywhere', async () => ({}))).toThrow(
      /GET \/api\/notDeclaredAnywhere is not in the contract's API_ACCESS table/,
    );
    await app.close();
  });
});
