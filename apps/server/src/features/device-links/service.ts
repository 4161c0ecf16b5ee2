/*
 * Linking a participant's device (core §4 authorization flow), the same way
 * for every provider: staff request consent (emailed link) → consent page →
 * the provider's authorize page → callback → tokens stored encrypted and the
 * participant-device record authorized. Device lists go through
 * withFreshToken (one refresh, one retry); failures become the spec's labels.
 * A Fitbit link moving to Google Health (re-consent): `reconsent.ts`.
 */
import {
  DEVICE_ERROR_LABELS,
  type DeviceEntry,
  type DeviceErrorLabel,
  LINK_MESSAGES,
  type LinkStatus,
  linkedMessage,
  PROVIDER_PAGES,
  type Provider,
  type TokenStatus,
} from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit, recordAudit } from '../../audit/audit-log.js';
import type { Actor } from '../../http/actor.js';
import { AppError, notFound } from '../../http/errors.js';
import { takeInteractiveCall } from '../../providers/call-budget.js';
import { deleteTokens, loadTokens, saveTokens } from '../../providers/token-store.js';
import { findTokens } from '../../providers/tokens-repo.js';
import type { ProviderClient, ProviderFailure } from '../../providers/types.js';
import {
  isTokenFailure,
  refreshTokens,
  type TokenFailure,
  withFreshToken,
} from '../../providers/with-fresh-token.js';
import { UndecryptableSecret } from '../../security/encryption.js';
import { getParticipant } from '../participants/service.js';
import {
  checkConsentLink,
  consumeConsentState,
  createConsentState,
  issueConsentLink,
} from './consent-state.js';
import {
  FITBIT_API_OF,
  giveBackGrant,
  grantToGiveBack,
  isOtherAccount,
  linkClient,
  markForReconsentIfDead,
  reconsentRequired,
} from './reconsent.js';
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

/** The participant's link to this provider (Fitbit's two APIs share one link). */
const findLink = (ctx: AppContext, provider: Provider, participantId: number) =>
  repo.findLink(
    ctx.db,
    participantId,
    provider === 'fitbit' ? (['fitbit', 'google_health'] as const) : ([provider] as const),
  );

export async function requestConsent(
  ctx: AppContext,
  c: ProviderClient,
  actor: Actor,
  participantId: number,
) {
  const p = await getParticipant(ctx, actor, participantId);
  const token = await issueConsentLink(ctx, p, c.provider, actor.userId);
  const link = new URL(`${ctx.config.publicUrl}${PROVIDER_PAGES[c.provider].consent}`);
  link.searchParams.set('id', String(p.id));
  link.searchParams.set('t', token);
  if (c.provider === 'dexcom') link.searchParams.set('provider', 'dexcom');
  const emailable = !p.email.endsWith('@hidden.invalid');
  if (emailable) {
    await ctx.mailer.send({
      to: p.email,
      subject: `Please connect your ${c.brand} to your study`,
      text: [
        'Hello,',
        '',
        `Your study team asks you to share your ${c.brand} data with the study through TrialWear.`,
        c.linkProvider === 'google_health'
          ? `Open this link, sign in with the Google account your ${c.brand} uses and choose Allow:`
          : `Open this link, sign in to ${c.brand} and choose Allow:`,
        '',
        link.toString(),
        '',
        `You can stop sharing at any time by telling your study team or removing TrialWear in your ${c.brand} account.`,
      ].join('\n'),
    });
  }
  await recordActorAudit(ctx.db, actor, {
    action: `${c.provider}.consent.requested`,
    entityType: 'participant',
    entityId: p.id,
    after: { emailed: emailable },
  });
  // When the team keeps no emails, staff hand the link over themselves.
  return { success: true, emailed: emailable, link: link.toString() };
}

export async function authorizeUrl(
  ctx: AppContext,
  c: ProviderClient,
  participantId: number,
  linkToken: string,
) {
  const consentTokenHash = await checkConsentLink(ctx, participantId, c.provider, linkToken);
  const s = c.settings;
  const { state, codeChallenge } = await createConsentState(
    ctx,
    participantId,
    c.linkProvider,
    consentTokenHash,
  );
  const url = new URL(s.authorizeUrl);
  const params = new URLSearchParams({
    client_id: s.clientId,
    response_type: 'code',
    redirect_uri: s.redirectUri,
    scope: s.scopes.join(' '),
    state,
  });
  if (s.pkce) {
    params.set('code_challenge', codeChallenge);
    params.set('code_challenge_method', 'S256');
  }
  for (const [k, v] of Object.entries(s.authorizeExtras ?? {})) params.set(k, v);
  url.search = params.toString();
  return { url: url.toString() };
}

export async function completeConsent(
  ctx: AppContext,
  c: ProviderClient,
  authCode: string,
  state: string,
  ip: string,
) {
  const { participantId, codeVerifier, consentTokenHash } = await consumeConsentState(
    ctx,
    state,
    c.linkProvider,
  );
  const tokens = await c.oauth.exchangeCode(authCode, codeVerifier);
  if (!tokens.ok) throw new AppError(502, LINK_MESSAGES.authFailed, 'InternalError', { displayToUser: true });
  const now = ctx.now();
  // A link moving to another API (legacy Fitbit → Google Health): its old grant is given back afterwards.
  let replaced: Awaited<ReturnType<typeof grantToGiveBack>> = null;
  // The link, its tokens, the spent consent link and the audit entry commit together or not at all.
  const refusal = await ctx.db.transaction().execute(async (trx) => {
    const participant = await repo.participantExists(trx, participantId);
    if (!participant)
      throw new AppError(422, LINK_MESSAGES.badLink, 'ValidationError', { displayToUser: true });
    if (consentTokenHash && !(await repo.spendConsentLink(trx, consentTokenHash, now)))
      throw new AppError(422, LINK_MESSAGES.linkUsed, 'ValidationError', { displayToUser: true });
    const existing = await findLink({ ...ctx, db: trx }, c.provider, participantId);
    if (isOtherAccount(existing, c.linkProvider, tokens.data)) {
      await recordAudit(trx, {
        userId: null,
        teamId: participant.team_id,
        action: `${c.provider}.link.refused_other_account`,
        entityType: 'participant',
        entityId: participantId,
        before: { providerUserId: existing?.provider_user_id },
        after: { providerUserId: tokens.data.providerUserId },
        ip,
      });
      return 'other_account' as const;
    }
    const values = {
      provider: c.linkProvider,
      authorization_status: 'authorized' as const,
      authorization_date: now,
      provider_user_id: tokens.data.providerUserId,
      legacy_user_id: tokens.data.legacyUserId ?? null,
      updated_at: now,
    };
    replaced = await grantToGiveBack({ ...ctx, db: trx }, existing, c.linkProvider);
    const linkId = existing
      ? await repo.authorizeLink(trx, existing.id, values)
      : await repo.insertLink(trx, {
          participantId,
          teamId: participant.team_id,
          catalogId: await repo.catalogDeviceId(trx, c.catalogDevice),
          ...values,
        });
    await saveTokens({ ...ctx, db: trx }, linkId, tokens.data);
    await recordAudit(trx, {
      userId: null,
      teamId: participant.team_id,
      action: `${c.provider}.authorized`,
      entityType: 'participant',
      entityId: participantId,
      ...(existing && existing.provider !== c.linkProvider
        ? { before: { api: FITBIT_API_OF[existing.provider] ?? existing.provider } }
        : {}),
      after: {
        participantDeviceId: linkId,
        ...(FITBIT_API_OF[c.linkProvider] ? { api: FITBIT_API_OF[c.linkProvider] } : {}),
      },
      ip,
    });
    return null;
  });
  if (refusal === 'other_account') {
    // The new account's grant is not kept: give it back to the provider, then say what staff must do.
    if (c.oauth.revoke) await c.oauth.revoke(tokens.data.refresh_token ?? tokens.data.access_token);
    throw new AppError(409, LINK_MESSAGES.otherAccount, 'Conflict', { displayToUser: true });
  }
  await giveBackGrant(replaced);
  return { success: true, message: linkedMessage(c.provider) };
}

export async function linkStatus(
  ctx: AppContext,
  c: ProviderClient,
  actor: Actor,
  participantId: number,
): Promise<LinkStatus> {
  await getParticipant(ctx, actor, participantId);
  const link = await findLink(ctx, c.provider, participantId);
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
  const status = await linkStatus(ctx, c, actor, participantId);
  const link = status.status === 'authorized' ? await findLink(ctx, c.provider, participantId) : undefined;
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
  await getParticipant(ctx, actor, participantId);
  const link = await findLink(ctx, c.provider, participantId);
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
  await getParticipant(ctx, actor, participantId);
  const link = await findLink(ctx, c.provider, participantId);
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
  await getParticipant(ctx, actor, participantId);
  const link = await findLink(ctx, c.provider, participantId);
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
  await getParticipant(ctx, actor, participantId);
  const link = await findLink(ctx, c.provider, participantId);
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
