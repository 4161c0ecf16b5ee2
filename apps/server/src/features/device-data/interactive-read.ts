/*
 * One interactive provider read (data pages): shared with identical reads in
 * flight and kept 60 s (providers/answer-cache.ts), counted against the
 * device's interactive share of the hourly budget (providers/call-budget.ts)
 * only when it really calls, through withFreshToken; a failure becomes the
 * spec's error (provider-errors.ts), a spent budget or a provider 429 a 429
 * that says when calls resume (Retry-After and `user.resumesAt`).
 *
 * Long ranges (issue #21 §3): a path longer than the provider's maximum is
 * read as its windows (contract `parseFitbitTrackerPath`), one after the
 * other, never in parallel; the calls the uncached windows need are taken
 * from the budget at once, all or none, so a year is either read whole or
 * refused before any call.
 */

import type { Provider } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { AnswerCache, answerCacheOf } from '../../providers/answer-cache.js';
import { takeInteractiveCall } from '../../providers/call-budget.js';
import type { DataQuery, ProviderAnswer, ProviderClient } from '../../providers/types.js';
import { withFreshToken } from '../../providers/with-fresh-token.js';
import { budgetSpent, providerError } from './provider-errors.js';

export interface InteractiveReadOptions {
  /** Skip the cache (the raw page shows the answer as received now). */
  fresh?: boolean;
  /** The call was already taken from the budget (a long range's windows). */
  prepaid?: boolean;
}

export function interactiveReader(
  ctx: AppContext,
  client: ProviderClient,
  provider: Provider,
  linkId: number,
) {
  const data = client.data!;
  const cache = answerCacheOf(ctx);
  const call = async (query: DataQuery, prepaid: boolean): Promise<ProviderAnswer> => {
    if (!prepaid) {
      // One provider call of the device's interactive share, shared with the sync and every server.
      const budget = await takeInteractiveCall(ctx, linkId);
      if (!budget.ok) throw budgetSpent(budget.retryAfterSeconds, budget.resumesAt);
    }
    const r = await withFreshToken(ctx, client, linkId, (accessToken) => data.read(accessToken, query));
    if (!r.ok) throw providerError(provider, r, ctx.now());
    return r.data;
  };
  const read = (query: DataQuery, opts: InteractiveReadOptions = {}) => {
    const key = AnswerCache.key(linkId, client.linkProvider, query);
    if (opts.fresh) return call(query, false);
    return cache.read(key, () => call(query, opts.prepaid === true));
  };
  /** A long range's windows: the uncached ones paid at once, then read one after the other. */
  const readWindows = async (queries: DataQuery[]): Promise<ProviderAnswer[]> => {
    if (queries.length === 1) return [await read(queries[0]!)];
    const toCall = queries.filter((q) => !cache.get(AnswerCache.key(linkId, client.linkProvider, q))).length;
    if (toCall > 0) {
      const budget = await takeInteractiveCall(ctx, linkId, toCall);
      if (!budget.ok) throw budgetSpent(budget.retryAfterSeconds, budget.resumesAt);
    }
    const answers: ProviderAnswer[] = [];
    for (const q of queries) answers.push(await read(q, { prepaid: true }));
    return answers;
  };
  return { read, readWindows };
}
