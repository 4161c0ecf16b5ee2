/*
 * A Fitbit link moving between Fitbit's two APIs (issue #13, Google Health
 * re-consent). A legacy Fitbit link keeps working through the legacy client
 * after the deployment switches to Google Health; once its authorization
 * fails for good it is marked errored and the card asks for a new consent,
 * which moves the link to the current API (the same participant's Fitbit
 * user, checked through Google's legacyUserId) and gives the old grant back.
 */
import type { FitbitApi, LinkProvider } from '@trialwear/contract';
import type { Actor } from '../../access/actor.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit } from '../../audit/audit-log.js';
import { loadTokens } from '../../providers/token-store.js';
import type { ProviderClient, ProviderFailure } from '../../providers/types.js';
import type { TokenFailure } from '../../providers/with-fresh-token.js';
import * as repo from './repo.js';

export const FITBIT_API_OF: Partial<Record<LinkProvider, FitbitApi>> = {
  fitbit: 'legacy',
  google_health: 'google_health',
};

/**
 * The client of the API a link was authorized with: a legacy Fitbit link
 * keeps the legacy client when the deployment links through Google Health,
 * until the participant consents again.
 */
export const linkClient = (ctx: AppContext, link: { provider: LinkProvider }) =>
  ctx.providers.links[link.provider];

/** The link is on an API this deployment no longer links with and has failed: only a new consent helps. */
export const reconsentRequired = (
  ctx: AppContext,
  c: ProviderClient,
  link: Pick<repo.LinkRow, 'provider' | 'authorization_status'> | undefined,
) => link?.authorization_status === 'error' && link.provider !== ctx.providers[c.provider].linkProvider;

/**
 * A participant whose device of this brand is authorized for one provider
 * account cannot be moved to another account by a consent: staff revoke
 * first. (Providers that name no user, like Dexcom, cannot be compared.)
 */
export function isOtherAccount(
  existing: repo.LinkRow | undefined,
  linkProvider: LinkProvider,
  tokens: { providerUserId: string | null; legacyUserId?: string | null },
) {
  if (existing?.authorization_status !== 'authorized' || existing.provider_user_id === null) return false;
  // A legacy Fitbit link re-consented through Google: the Google identity's legacyUserId names
  // the Fitbit user it was (google-health-api.md §2.6); without one, nothing can be compared.
  const comparable =
    existing.provider === linkProvider
      ? tokens.providerUserId
      : existing.provider === 'fitbit' && linkProvider === 'google_health'
        ? (tokens.legacyUserId ?? null)
        : null;
  return comparable !== null && existing.provider_user_id !== comparable;
}

/** The old API's grant of a link a consent moves to another API (null when it stays, or has none). */
export async function grantToGiveBack(
  ctx: AppContext,
  existing: repo.LinkRow | undefined,
  linkProvider: LinkProvider,
): Promise<{ client: ProviderClient; token: string } | null> {
  if (!existing || existing.provider === linkProvider) return null;
  const old = await loadTokens(ctx, existing.id);
  return old ? { client: linkClient(ctx, existing), token: old.refreshToken ?? old.accessToken } : null;
}

/** The legacy grant is no longer used: give it back to Fitbit (best effort: it may be dead already). */
export async function giveBackGrant(old: { client: ProviderClient; token: string } | null) {
  if (old?.client.oauth.revoke) await old.client.oauth.revoke(old.token).catch(() => undefined);
}

/**
 * After a failed device list: a link on the API this deployment no longer
 * links with that has failed for good is not refreshed back to life; it is
 * marked errored so that the card asks for a new consent (through the current API).
 */
export async function markForReconsentIfDead(
  ctx: AppContext,
  c: ProviderClient,
  actor: Actor,
  participantId: number,
  link: Pick<repo.LinkRow, 'id' | 'provider'>,
  res: { ok: false } & (TokenFailure | ProviderFailure),
) {
  if (link.provider === c.linkProvider || !authorizationDead(res)) return;
  await repo.setLinkErrored(ctx.db, link.id, ctx.now());
  await recordActorAudit(ctx.db, actor, {
    action: `${c.provider}.link.failed`,
    entityType: 'participant',
    entityId: participantId,
    after: { participantDeviceId: link.id, api: FITBIT_API_OF[link.provider] ?? link.provider },
  });
}

/** The token is refused for good: the refresh was refused, nothing is stored, or a 401/403 survived the retry. */
function authorizationDead(res: { ok: false } & (TokenFailure | ProviderFailure)) {
  if ('tokenProblem' in res) return res.tokenProblem === 'missing' || res.tokenProblem === 'refresh_refused';
  return res.status === 401 || res.status === 403;
}
