/*
 * The control API every simulator shares (tests and training): expire a
 * user's tokens, revoke them, fail the next N calls with a status, and set
 * the simulated clock; a provider adds its own (rate-limit exhaustion).
 * Mounted only when the simulator is created with `control: true`: anyone
 * who can reach it can break every participant's link, so the portal mounts
 * it only in development and test configurations (SIMULATOR_CONTROL=true).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SimClock } from '../clock.js';
import type { OAuthStore } from './oauth-store.js';

/**
 * Counts the data calls (requests with a Bearer token) per user, so a test
 * can tell how many times the portal called the provider: a retry loop on a
 * 429, or a call made for a query that should have been refused, shows. Calls
 * with a token the simulator does not know count under '-'.
 */
export class CallCounter {
  private counts = new Map<string, number>();
  constructor(private readonly store: OAuthStore) {}
  /** An onRequest hook: register it before the data routes. */
  readonly hook = async (request: FastifyRequest) => {
    const h = request.headers.authorization ?? '';
    if (!h.startsWith('Bearer ')) return;
    const user = this.store.userOf(h.slice(7)) ?? '-';
    this.counts.set(user, (this.counts.get(user) ?? 0) + 1);
  };
  count(userId: string) {
    return this.counts.get(userId) ?? 0;
  }
  reset() {
    this.counts.clear();
  }
}

export function registerControlRoutes(
  app: FastifyInstance,
  deps: {
    enabled: boolean;
    store: OAuthStore;
    clock: SimClock;
    /** `retryAfterSeconds`: a 429 carries Retry-After with it (providers that send one). */
    failNext: (next: { count: number; status: number; retryAfterSeconds?: number }) => void;
    /** The data-call counter this simulator registered (GET /_control/calls?userId=). */
    calls: CallCounter;
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
    const { count, status, retryAfterSeconds } = request.body as {
      count: number;
      status: number;
      retryAfterSeconds?: number;
    };
    deps.failNext({ count, status, ...(retryAfterSeconds !== undefined && { retryAfterSeconds }) });
    return { ok: true };
  });
  app.get('/_control/calls', async (request) => {
    const userId = (request.query as { userId?: string }).userId ?? '-';
    return { userId, calls: deps.calls.count(userId) };
  });
  app.post('/_control/calls/reset', async () => {
    deps.calls.reset();
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
