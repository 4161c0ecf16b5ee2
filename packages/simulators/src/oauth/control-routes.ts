/*
 * The control API every simulator shares (tests and training): expire a
 * user's tokens, revoke them, fail the next N calls with a status, and set
 * the simulated clock; a provider adds its own (rate-limit exhaustion).
 * Mounted only when the simulator is created with `control: true`: anyone
 * who can reach it can break every participant's link, so the portal mounts
 * it only in development and test configurations (SIMULATOR_CONTROL=true).
 */
import type { FastifyInstance } from 'fastify';
import type { SimClock } from '../clock.js';
import type { OAuthStore } from './oauth-store.js';

export function registerControlRoutes(
  app: FastifyInstance,
  deps: {
    enabled: boolean;
    store: OAuthStore;
    clock: SimClock;
    failNext: (next: { count: number; status: number }) => void;
    /** Provider-specific control routes. */
    extra?: (app: FastifyInstance) => void;
  },
) {
  if (!deps.enabled) return;
  deps.extra?.(app);
  app.post('/_control/expire-token', async (request) => {
    deps.store.expireUser((request.body as { userId: string }).userId);
    return { ok: true };
  });
  app.post('/_control/revoke', async (request) => {
    deps.store.revokeUser(null, (request.body as { userId: string }).userId);
    return { ok: true };
  });
  app.post('/_control/fail-next', async (request) => {
    const { count, status } = request.body as { count: number; status: number };
    deps.failNext({ count, status });
    return { ok: true };
  });
  app.post('/_control/clock', async (request) => {
    const b = request.body as { now?: string; advanceMs?: number; reset?: boolean };
    if (b.reset) deps.clock.reset();
    if (b.now) deps.clock.set(new Date(b.now));
    if (b.advanceMs) deps.clock.advance(b.advanceMs);
    return { now: deps.clock.now().toISOString() };
  });
}
