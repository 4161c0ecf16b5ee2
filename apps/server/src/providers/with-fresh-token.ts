/*
 * Every authorized call to a provider goes through here (core §4): call with
 * the stored access token; when the provider says the token has expired,
 * refresh it once (single-flight, rotated token committed first) and retry
 * the call once. Never more: a second failure is the answer. Device lists use
 * it today; data pages, sync and export use it the same way.
 */
import { UndecryptableSecret } from '../security/encryption.js';
import { loadTokens, refreshOnce, type TokenContext } from './token-store.js';
import type { ProviderClient, ProviderFailure, ProviderResult } from './types.js';

/** Why no provider answer could be had: the token side, not the provider's data side. */
export interface TokenFailure {
  ok: false;
  tokenProblem:
    | 'missing' // nothing stored: the participant must authorize
    | 'refresh_refused' // the provider refused the refresh token (revoked, reused): authorize again
    | 'refresh_unreachable' // no answer from the provider's token endpoint
    | 'refresh_failed' // any other refresh failure
    | 'undecryptable'; // stored, but no configured key opens it (logged; nothing is changed)
  failure: ProviderFailure | null;
}

export type FreshTokenResult<T> = ProviderResult<T> | TokenFailure;

export const isTokenFailure = <T>(r: FreshTokenResult<T>): r is TokenFailure => !r.ok && 'tokenProblem' in r;

class RefreshError extends Error {
  constructor(readonly failure: ProviderFailure) {
    super(failure.message);
  }
}

export async function withFreshToken<T>(
  ctx: TokenContext,
  client: ProviderClient,
  participantDeviceId: number,
  call: (accessToken: string) => Promise<ProviderResult<T>>,
): Promise<FreshTokenResult<T>> {
  let tokens: Awaited<ReturnType<typeof loadTokens>>;
  try {
    tokens = await loadTokens(ctx, participantDeviceId);
  } catch (err) {
    if (err instanceof UndecryptableSecret)
      return { ok: false, tokenProblem: 'undecryptable', failure: null };
    throw err;
  }
  if (!tokens) return { ok: false, tokenProblem: 'missing', failure: null };
  const first = await call(tokens.accessToken);
  if (first.ok || !client.needsRefresh(first)) return first;
  try {
    tokens = await refreshTokens(ctx, client, participantDeviceId, tokens.version);
  } catch (err) {
    if (err instanceof UndecryptableSecret)
      return { ok: false, tokenProblem: 'undecryptable', failure: null };
    const failure = err instanceof RefreshError ? err.failure : null;
    const tokenProblem =
      failure && (failure.status === 400 || failure.status === 401)
        ? 'refresh_refused'
        : failure?.status === 0
          ? 'refresh_unreachable'
          : 'refresh_failed';
    return { ok: false, tokenProblem, failure };
  }
  return call(tokens.accessToken);
}

/** Refresh now (the staff's "refresh token" action, or after an expiry); throws on failure. */
export function refreshTokens(
  ctx: TokenContext,
  client: ProviderClient,
  participantDeviceId: number,
  staleVersion: number,
) {
  return refreshOnce(ctx, participantDeviceId, staleVersion, async (refreshToken) => {
    const fresh = await client.oauth.refresh(refreshToken);
    if (!fresh.ok) throw new RefreshError(fresh);
    return fresh.data;
  });
}
