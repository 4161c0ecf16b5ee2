/*
 * One background provider call of a device (the sync, the export's fetch,
 * the health check): budget first — the device's background share of the
 * hour (providers/call-budget.ts: pages cannot take it) and the provider
 * app's limit where it has one — then the call through withFreshToken (one
 * refresh, one retry), then what its answer means for whoever called:
 * SyncStop (429, budget, revoked: stop and wait), ProviderUnavailable (5xx,
 * no answer: back off), ReadRefused (this read only, e.g. a scope not
 * granted).
 */
import type { Provider } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { takeSyncCall } from '../../providers/call-budget.js';
import { ReadRefused, type SyncIO, SyncStop } from '../../providers/sync-types.js';
import type { ProviderResult, RegisteredClient } from '../../providers/types.js';
import { isTokenFailure, withFreshToken } from '../../providers/with-fresh-token.js';
import * as repo from './repo.js';

/** A transient provider failure (5xx, network): the device backs off (backoffMs). */
export class ProviderUnavailable extends Error {}

/** Stop before Fitbit's own count runs out (its Fitbit-Rate-Limit-Remaining header). */
const FITBIT_REMAINING_FLOOR = 10;
const REVOKED = 'Authorization revoked or invalid: the participant must authorize again';
const nextHour = (now: Date) => new Date(Math.floor(now.getTime() / 3_600_000 + 1) * 3_600_000);

export interface BackgroundCallOptions {
  /** Counted once per call made. */
  onCall?: () => void;
  /** Stops before the next call (the export was cancelled). */
  signal?: AbortSignal;
}

/** A budgeted call of the device's client: `call` gets the access token, the answer's data is returned. */
export function backgroundCaller(
  ctx: AppContext,
  client: RegisteredClient,
  deviceId: number,
  provider: Provider,
  opts: BackgroundCallOptions = {},
) {
  const appLimit = client.appCallsPerHour;
  return async <T>(call: (accessToken: string) => Promise<ProviderResult<T>>): Promise<T> => {
    opts.signal?.throwIfAborted();
    const now = ctx.now();
    if (!(await takeSyncCall(ctx, deviceId)).ok)
      throw new SyncStop('budget', 'Hourly call budget spent; resuming next hour', nextHour(now));
    if (appLimit > 0 && !(await repo.takeAppCall(ctx.db, provider, now, appLimit)))
      throw new SyncStop('budget', `Hourly ${provider} app budget spent; resuming next hour`, nextHour(now));
    opts.onCall?.();
    const r = await withFreshToken(ctx, client, deviceId, call);
    if (isTokenFailure(r)) {
      if (r.tokenProblem === 'missing' || r.tokenProblem === 'refresh_refused')
        throw new SyncStop('revoked', REVOKED);
      throw new ProviderUnavailable(`Token refresh failed: ${r.failure?.message ?? r.tokenProblem}`);
    }
    if (!r.ok) {
      if (r.status === 429) {
        const wait = r.retryAfterSeconds ?? 60;
        throw new SyncStop(
          'rate_limited',
          `Rate limited by the provider (Retry-After ${wait} s)`,
          new Date(now.getTime() + wait * 1000),
        );
      }
      // A 401 left after withFreshToken (refreshed and retried, or not an expiry at all): the token is invalid.
      if (r.status === 401) throw new SyncStop('revoked', REVOKED);
      if (r.status === 0 || r.status >= 500)
        throw new ProviderUnavailable(`Provider unavailable (${r.status || 'no answer'}): ${r.message}`);
      throw new ReadRefused(`${r.status} ${r.message}`);
    }
    return r.data;
  };
}

/** The data reader of a background job: one budgeted call per read; Fitbit's own nearly spent count defers the device. */
export function backgroundReader(
  ctx: AppContext,
  client: RegisteredClient,
  deviceId: number,
  provider: Provider,
  opts: BackgroundCallOptions = {},
): SyncIO['read'] {
  const call = backgroundCaller(ctx, client, deviceId, provider, opts);
  const data = client.data!;
  return async (query) => {
    const answer = await call((token) => data.read(token, query));
    const remaining = Number(answer.headers['fitbit-rate-limit-remaining']);
    if (Number.isFinite(remaining) && remaining <= FITBIT_REMAINING_FLOOR) {
      const reset = Number(answer.headers['fitbit-rate-limit-reset']);
      const now = ctx.now();
      const at = Number.isFinite(reset) ? new Date(now.getTime() + reset * 1000) : nextHour(now);
      await repo.deferUntil(ctx.db, deviceId, at);
    }
    return answer;
  };
}
