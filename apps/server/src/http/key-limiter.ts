/*
 * A small fixed-window limiter keyed by something other than the IP (an
 * account name or email), for the per-account limits on sign-in and reset.
 * Kept in PostgreSQL (rate_limit_hits, one upsert per hit): every server on
 * the database counts toward one budget, so N servers never give N budgets.
 */

import { AppError } from '../access/errors.js';
import type { Db } from '../db/database.js';
import { countHit } from './rate-limit-repo.js';

export function createKeyLimiter(
  db: Db,
  name: string,
  max: number,
  windowMs: number,
  now: () => number = Date.now,
) {
  return async function hit(key: string) {
    const { hits } = await countHit(db, `acct:${name}:${key}`, windowMs, new Date(now()));
    if (hits > max) throw new AppError(429, 'Too Many Requests', 'RateLimited', { displayToUser: true });
  };
}
