/*
 * A store for @fastify/rate-limit in PostgreSQL (rate_limit_hits, the same
 * upsert as the per-account limits): the per-IP limits of the sensitive
 * routes (sign-in, codes, resets, sign-up, contact, consent) hold across
 * every server on the database. Only routes with a `rateLimit` config use it
 * (the plugin is registered with `global: false`), so the hot read routes
 * never pay for an upsert. Keys are prefixed per route, as the plugin's
 * Redis store does; windows are fixed, on the wall clock like its local store.
 */
import type { Db } from '../db/database.js';
import { countHit } from './rate-limit-repo.js';

type Incr = (err: Error | null, result?: { current: number; ttl: number }) => void;

/** What the plugin passes to child(): the route's merged limit, with `routeInfo` the route (typed as the route itself). */
interface RouteLimit {
  timeWindow?: unknown;
  routeInfo?: { method?: string | string[]; url?: string };
}

const DEFAULT_WINDOW_MS = 60_000;

export function pgRateLimitStore(db: Db) {
  return class PgRateLimitStore {
    constructor(
      _options?: unknown,
      readonly prefix = 'rl:',
      readonly windowMs = DEFAULT_WINDOW_MS,
    ) {}

    /** The plugin passes the window (and max) after the callback, though its types do not say so. */
    incr(key: string, cb: Incr, timeWindow?: number) {
      const now = Date.now();
      countHit(db, `${this.prefix}${key}`, timeWindow ?? this.windowMs, new Date(now)).then(
        ({ hits, expiresAt }) => cb(null, { current: hits, ttl: Math.max(0, expiresAt.getTime() - now) }),
        (err: Error) => cb(err),
      );
    }

    child(options: unknown) {
      const routeOptions = options as RouteLimit;
      const { method = '', url = '' } = routeOptions.routeInfo ?? {};
      const windowMs = typeof routeOptions.timeWindow === 'number' ? routeOptions.timeWindow : this.windowMs;
      return new PgRateLimitStore(undefined, `${this.prefix}${[method].flat().join(',')}${url}:`, windowMs);
    }
  };
}
