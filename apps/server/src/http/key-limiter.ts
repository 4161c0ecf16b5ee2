/*
 * A small fixed-window limiter keyed by something other than the IP (an
 * account name or email), for the per-account limits on sign-in and reset.
 * In memory: with several servers each keeps its own window, and the
 * database-backed account lock still caps failures for good.
 */
import { AppError } from './errors.js';

export function createKeyLimiter(max: number, windowMs: number, now: () => number = Date.now) {
  const hits = new Map<string, { count: number; resetAt: number }>();
  return function hit(key: string) {
    const t = now();
    if (hits.size > 10_000) for (const [k, v] of hits) if (v.resetAt <= t) hits.delete(k);
    const entry = hits.get(key);
    if (!entry || entry.resetAt <= t) {
      hits.set(key, { count: 1, resetAt: t + windowMs });
      return;
    }
    entry.count += 1;
    if (entry.count > max)
      throw new AppError(429, 'Too Many Requests', 'RateLimited', { displayToUser: true });
  };
}
