/*
 * The setup the REST surface conformance files (google-health-api-*.test.ts)
 * share: one simulator per test file with one linked person, reset and set
 * to 2026-11-20 12:00 UTC before each test, and the request and error
 * helpers. `sim`, `token`, `account` and `legacy` are ES live bindings: the
 * hooks of `useRestSuite` assign them, the tests read them.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { api, control, type Json, link, type Sim, startSim } from './test-kit.js';

export let sim: Sim;
export let token = '';
export let account = '';
export let legacy = '';

/** Registers the file's hooks: call it at the top of its describe. */
export function useRestSuite() {
  beforeAll(async () => {
    sim = await startSim();
    const t = await link(sim, 'api-test.n.m');
    token = t.access_token;
    account = t.account;
    legacy = (await api(sim, token, '/v4/users/me/identity')).body.legacyUserId;
  });
  beforeEach(async () => {
    await control(sim, 'reset');
    sim.clock.set(new Date('2026-11-20T12:00:00Z'));
  });
  afterAll(() => sim.close());
}

export const enc = encodeURIComponent;
export const list = (type: string, q: Record<string, string>) =>
  `/v4/users/me/dataTypes/${type}/dataPoints?${new URLSearchParams(q)}`;

export const expectError = (
  r: { status: number; body: Json },
  code: number,
  status: string,
  reason?: string,
) => {
  expect(r.status, JSON.stringify(r.body)).toBe(code);
  expect(r.body.error.code).toBe(code);
  expect(r.body.error.status).toBe(status);
  if (reason)
    expect(r.body.error.details[0]).toMatchObject({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason,
    });
  return r.body.error.message as string;
};
