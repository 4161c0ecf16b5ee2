/*
 * A linked device, for every provider: its link and token status, its device
 * list, a token refresh, revoking the link. Provider calls go through
 * withFreshToken (one refresh, one retry); failures become the spec's labels.
 * Making the link (consent, authorize page, callback): `consent-flow.ts`; a
 * Fitbit link moving to Google Health (re-consent): `reconsent.ts`.
 */
import {
  DEVICE_ERROR_LABELS,
  type DeviceEntry,
  type DeviceErrorLabel,
  LINK_MESSAGES,
  type LinkStatus,
  type TokenStatus,
} from '@trialwear/contract';
import { AppError, notFound } from '../../access/errors.js';
import { type Actor, type ParticipantScope, requireParticipant } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit, recordAudit } from '../../audit/audit-log.js';
import { takeInteractiveCall } from '../../providers/call-budget.js';
import { deleteTokens, loadTokens } from '../../providers/token-store.js';
import { findTokens } from '../../providers/tokens-repo.js';
import type { ProviderClient, ProviderFailure } from '../../providers/types.js';
import {
  isTokenFailure,
  refreshTokens,
  type TokenFailure,
  withFreshToken,
} from '../../providers/with-fresh-token.js';
import { UndecryptableSecret } from '../../security/encryption.js';
import { FITBIT_API_OF, linkClient, markForReconsentIfDead, reconsentRequired } from './reconsent.js';
import * as repo from './repo.js';

/** Error-card labels of core §8, from real failures. */
export function deviceErrorLabel(f: Pick<ProviderFailure, 'status' | 'errorType'>): DeviceErrorLabel {
  if (f.errorType === 'parse' || f.errorType === 'processing') return DEVICE_ERROR_LABELS.processing;
  if (f.status === 429) return DEVICE_ERROR_LABELS.rateLimited;
  if (f.status === 401 || f.status === 403) return DEVICE_ERROR_LABELS.authRequired;
  if (f.status === 404) return DEVICE_ERROR_LABELS.notFound;
  if (f.status === 0) return DEVICE_ERROR_LABELS.connection;
  if (f.status >= 500) return DEVICE_ERROR_LABELS.server;
  return DEVICE_ERROR_LABELS.processing;
}

/** The label of a token problem: refused or missing tokens mean "authorize again". */
export function tokenErrorLabel(t: TokenFailure): DeviceErrorLabel {
  if (t.tokenProblem === 'missing' || t.tokenProblem === 'refresh_refused')
    return DEVICE_ERROR_LABELS.authRequired;
  if (t.tokenProblem === 'refresh_unreachable') return DEVICE_ERROR_LABELS.connection;
  // 'undecryptable' (no configured key opens the stored token, logged by the token store) and any
  // other refresh failure: the authorization cannot be checked; nothing stored is changed.
  return DEVICE_ERROR_LABELS.authCheckFailed;
}

export const errorEntry = (errorType: string): DeviceEntry => ({
  device: 'Error',
  batteryLevel: null,
  battery: null,
  deviceName: null,
  deviceVersion: null,
  deviceType: null,
  lastSyncTime: null,
  hasError: true,
  errorType,
});

/** A stored token no configured key opens (logged by the token store) becomes a 502 with `message`. */
const refusedWhenUndecryptable = (message: string) => (err: unknown) => {
  if (err instanceof UndecryptableSecret)
    throw new AppError(502, message, 'InternalError', { displayToUser: true });
  throw err;
};

export async function linkStatus(
  ctx: AppContext,
  c: ProviderClient,
  actor: Actor,
  participantId: number,
): Promise<LinkStatus> {
  return linkStatusOf(ctx, c, await requireParticipant(ctx, actor, participantId));
}

async function linkStatusOf(
  ctx: AppContext,
  c: ProviderClient,
  participant: ParticipantScope,
): Promise<LinkStatus> {
  const link = await repo.findProviderLink(ctx.db, c.provider, participant);
  const api = link ? (FITBIT_API_OF[link.provider] ?? null) : null;
  return {
    status: link?.authorization_status ?? 'none',
    authorizationDate: link?.authorization_date ? new Date(link.authorization_date).toISOString() : null,
    revokeAvailable: (link ? linkClient(ctx, link) : c).oauth.revoke !== null,
    api,
    reconsentRequired: reconsentRequired(ctx, c, link),
  };
}

/** The link status and its token's scopes, expiry and last change (never the token). */
export async function tokenStatus(
  ctx: AppContext,
  c: ProviderClient,
  actor: Actor,
  participantId: number,
): Promise<TokenStatus> {
  const participant = await requireParticipant(ctx, actor, participantId);
  const status = await linkStatusOf(ctx, c, participant);
  const link =
    status.status === 'authorized' ? await repo.findProviderLink(ctx.db, c.provider, participant) : undefined;
  const t = link && (await findTokens(ctx.db, link.id));
  const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
  return {
    ...status,
    scopes: t?.scope ? t.scope.split(/[\s,]+/).filter(Boolean) : [],
    expiresAt: iso(t?.expires_at),
    tokenUpdatedAt: iso(t?.updated_at),
    refreshable: !!t?.refresh_token_enc,
  };
}

export async function isAuthorized(ctx: AppContext, c: ProviderClient, actor: Actor, participantId: number) {
  const participant = await requireParticipant(ctx, actor, participantId);
  const link = await repo.findProviderLink(ctx.db, c.provider, participant);
  return {
    message: (link?.authorization_status === 'authorized' ? 'found' : 'not found') as 'found' | 'not found',
  };
}

/** The participant's devices of this provider; an expired token is refreshed once and the call retried once. */
export async function listDevices(
  ctx: AppContext,
  c: ProviderClient,
  actor: Actor,
  participantId: number,
): Promise<DeviceEntry[]> {
  const participant = await requireParticipant(ctx, actor, participantId);
  const link = await repo.findProviderLink(ctx.db, c.provider, participant);
  if (link?.authorization_status !== 'authorized') return [];
  // One provider call of the device's hourly budget, shared with the data pages, the sync and every server.
  if (!(await takeInteractiveCall(ctx, link.id)).ok) return [errorEntry(DEVICE_ERROR_LABELS.rateLimited)];
  const lc = linkClient(ctx, link);
  const res = await withFreshToken(ctx, lc, link.id, (accessToken) => lc.devices(accessToken, ctx.now()));
  if (res.ok) return res.data;
  await markForReconsentIfDead(ctx, c, actor, participantId, link, res);
  return [errorEntry(isTokenFailure(res) ? tokenErrorLabel(res) : deviceErrorLabel(res))];
}

export async function refreshParticipantToken(
  ctx: AppContext,
  c: ProviderClient,
  actor: Actor,
  participantId: number,
) {
  const participant = await requireParticipant(ctx, actor, participantId);
  const link = await repo.findProviderLink(ctx.db, c.provider, participant);
  const tokens =
    link && (await loadTokens(ctx, link.id).catch(refusedWhenUndecryptable(LINK_MESSAGES.refreshFailed)));
  if (!link || !tokens) throw notFound(LINK_MESSAGES.notLinked);
  try {
    await refreshTokens(ctx, linkClient(ctx, link), link.id, tokens.version);
  } catch {
    throw new AppError(502, LINK_MESSAGES.refreshFailed, 'InternalError', { displayToUser: true });
  }
  await recordActorAudit(ctx.db, actor, {
    action: `${c.provider}.token.refreshed`,
    entityType: 'participant',
    entityId: participantId,
  });
  return { success: true, message: LINK_MESSAGES.tokenRefreshed };
}

export async function revokeParticipant(
  ctx: AppContext,
  c: ProviderClient,
  actor: Actor,
  participantId: number,
) {
  const participant = await requireParticipant(ctx, actor, participantId);
  const link = await repo.findProviderLink(ctx.db, c.provider, participant);
  if (!link) throw notFound(LINK_MESSAGES.notLinked);
  await revokeLink(ctx, linkClient(ctx, link), link, {
    userId: actor.userId,
    teamId: actor.teamId,
    requestId: actor.requestId,
    ip: actor.ip,
    participantId,
  });
  return { success: true, message: LINK_MESSAGES.accessRevoked };
}

/**
 * Revokes one link: the token at the provider (when it has a revoke
 * endpoint), then tokens, link status and the audit row together. Staff
 * (above) and the participant (participant-portal, "Stop sharing") both
 * come here, so the provider and the staff pages see the same revocation.
 */
export async function revokeLink(
  ctx: AppContext,
  c: ProviderClient,
  link: Pick<repo.LinkRow, 'id'>,
  by: {
    userId: number | null;
    teamId: number;
    requestId: string;
    ip: string;
    participantId: number;
    /** Extra audit detail (who revoked, when not a staff user). */
    after?: object;
  },
) {
  // Tokens no configured key opens cannot be revoked at the provider: refused, nothing deleted.
  // (Dexcom has no revoke endpoint: its tokens are only dropped here, read or not.)
  const tokens = c.oauth.revoke
    ? await loadTokens(ctx, link.id).catch(refusedWhenUndecryptable(LINK_MESSAGES.revokeFailed))
    : null;
  if (tokens && c.oauth.revoke) {
    const res = await c.oauth.revoke(tokens.refreshToken ?? tokens.accessToken);
    // A token the provider no longer knows is already revoked; anything else must not be hidden.
    if (!res.ok && res.status !== 400 && res.status !== 401) {
      throw new AppError(502, LINK_MESSAGES.revokeFailed, 'InternalError', { displayToUser: true });
    }
  }
  // Tokens gone, link revoked and the audit entry: together or not at all.
  await ctx.db.transaction().execute(async (trx) => {
    await deleteTokens({ db: trx }, link.id);
    await repo.setLinkRevoked(trx, link.id, ctx.now());
    await recordAudit(trx, {
      userId: by.userId,
      teamId: by.teamId,
      requestId: by.requestId,
      ip: by.ip,
      action: `${c.provider}.revoked`,
      entityType: 'participant',
      entityId: by.participantId,
      after: by.after,
    });
  });
}
