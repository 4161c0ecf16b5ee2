/*
 * What a failed provider read becomes for the staff (core §5 Tracker data,
 * Scale data): one mapping for every provider, so each data route answers
 * the same way. A 429 is passed on with the provider's Retry-After and never
 * retried here; an expired token was already refreshed once and retried once
 * by withFreshToken, so a 401 that is still there means the grant is gone.
 */
import { DATA_MESSAGES, type Provider, type ProviderLimitInfo } from '@trialwear/contract';
import { AppError } from '../../access/errors.js';
import type { ProviderFailure } from '../../providers/types.js';
import { isTokenFailure, type TokenFailure } from '../../providers/with-fresh-token.js';

const failedMessage: Record<Provider, (f: ProviderFailure) => string> = {
  fitbit: (f) => DATA_MESSAGES.fitbitFailed(f.message),
  omron: () => DATA_MESSAGES.omronFailed,
  dexcom: () => DATA_MESSAGES.dexcomFailed,
};
const unreachableMessage: Record<Provider, string> = {
  fitbit: DATA_MESSAGES.fitbitRequestFailed,
  omron: DATA_MESSAGES.omronFailed,
  dexcom: DATA_MESSAGES.dexcomFailed,
};

export const notAuthorized = () =>
  new AppError(409, DATA_MESSAGES.notAuthorized, 'Conflict', { displayToUser: true });

export const noData = () => new AppError(404, DATA_MESSAGES.noData, 'NotFound', { displayToUser: true });

/**
 * A 429 for a provider limit: our device's interactive share of the hour is
 * spent (providers/call-budget.ts), or the provider answered 429. Retry-After
 * and the body's `user.resumesAt` (contract `ProviderLimitInfo`) say when
 * calls resume, so a page can say it once, in the viewer's clock time.
 */
export const budgetSpent = (retryAfterSeconds: number, resumesAt: Date) =>
  new AppError(429, DATA_MESSAGES.tooManyRequests, 'RateLimited', {
    displayToUser: true,
    headers: { 'retry-after': String(retryAfterSeconds) },
    user: { resumesAt: resumesAt.toISOString() } satisfies ProviderLimitInfo,
  });

export function providerError(
  provider: Provider,
  f: ProviderFailure | TokenFailure,
  now: Date = new Date(),
): AppError {
  if (isTokenFailure(f)) {
    // Nothing stored, or the provider refused the refresh token: the participant must authorize again.
    if (f.tokenProblem === 'missing' || f.tokenProblem === 'refresh_refused') return notAuthorized();
    return new AppError(502, unreachableMessage[provider], 'InternalError', { displayToUser: true });
  }
  if (f.status === 429)
    return f.retryAfterSeconds !== undefined
      ? budgetSpent(f.retryAfterSeconds, new Date(now.getTime() + f.retryAfterSeconds * 1000))
      : new AppError(429, DATA_MESSAGES.tooManyRequests, 'RateLimited', { displayToUser: true });
  // Still unauthorized after the one refresh (revoked, invalid token): authorize again.
  if (f.status === 401) return notAuthorized();
  if (f.status === 0 || f.status >= 500)
    return new AppError(502, unreachableMessage[provider], 'InternalError', { displayToUser: true });
  // The provider refused what was asked (its validation, scope, Omron's status ≠ 0): say its words.
  return provider === 'fitbit'
    ? new AppError(400, failedMessage.fitbit(f), 'ValidationError', { displayToUser: true })
    : new AppError(502, failedMessage[provider](f), 'InternalError', { displayToUser: true });
}
