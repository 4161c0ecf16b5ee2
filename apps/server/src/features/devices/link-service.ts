/*
 * Linking a participant's device (core §4 authorization flow), the same way
 * for every provider: staff request consent (emailed link) → consent page →
 * the provider's authorize page → callback → tokens stored encrypted and the
 * participant-device record authorized. Device lists refresh an expired
 * token once, then retry once (core §4); failures become the spec's labels.
 */

import type { AppContext } from '../../app-context.js';
import { recordActorAudit, recordAudit } from '../../audit/audit-log.js';
import type { Actor } from '../../http/actor.js';
import { AppError, notFound } from '../../http/errors.js';
import { getParticipant } from '../participants/service.js';
import {
  checkConsentLinkToken,
  consentLinkToken,
  consumeConsentState,
  createConsentState,
} from './consent-state.js';
import type { DeviceEntry, ProviderAdapter, ProviderFailure } from './provider-adapter.js';
import { deleteTokens, loadTokens, refreshOnce, saveTokens } from './provider-tokens.js';

export const LINK_MESSAGES = {
  authFailed: 'Unable to complete authorization. Please click Cancel and try again.',
  revokeFailed: 'Something went wrong! We could not revoke the access token',
  refreshFailed: 'Something went wrong! We could not refresh the access token',
  notLinked: 'This participant has no authorized device of this brand.',
  badLink: 'This consent link is not valid.',
} as const;

/** Error-card labels of core §8, from real failures. */
export function deviceErrorLabel(f: Pick<ProviderFailure, 'status' | 'errorType'>): string {
  if (f.status === 429) return 'Rate limit exceeded';
  if (f.status === 401 || f.status === 403) return 'Authentication required';
  if (f.status === 404) return 'Device not found';
  if (f.status === 0) return 'Connection error';
  if (f.status >= 500) return 'Server error';
  return 'Processing failed';
}

export const errorEntry = (errorType: string): DeviceEntry => ({
  device: 'Error',
  batteryLevel: null,
  battery: null,
  deviceVersion: null,
  deviceType: null,
  lastSyncTime: null,
  hasError: true,
  errorType,
});

/** The participant's link to this provider (Fitbit's two APIs share one link). */
function findLink(ctx: AppContext, a: ProviderAdapter, participantId: number) {
  const providers =
    a.provider === 'fitbit' ? (['fitbit', 'google_health'] as const) : ([a.provider] as const);
  return ctx.db
    .selectFrom('participant_devices')
    .selectAll()
    .where('participant_id', '=', participantId)
    .where('provider', 'in', providers)
    .executeTakeFirst();
}

export async function requestConsent(
  ctx: AppContext,
  a: ProviderAdapter,
  actor: Actor,
  participantId: number,
) {
  const p = await getParticipant(ctx, actor, participantId);
  const link = new URL(`${ctx.config.publicUrl}${a.consentPage}`);
  link.searchParams.set('id', String(p.id));
  link.searchParams.set('t', consentLinkToken(ctx, p.id, a.provider));
  if (a.provider === 'dexcom') link.searchParams.set('provider', 'dexcom');
  const emailable = !p.email.endsWith('@hidden.invalid');
  if (emailable) {
    await ctx.mailer.send({
      to: p.email,
      subject: `Please connect your ${a.brand} to your study`,
      text: [
        'Hello,',
        '',
        `Your study team asks you to share your ${a.brand} data with the study through TrialWear.`,
        `Open this link, sign in to ${a.brand} and choose Allow:`,
        '',
        link.toString(),
        '',
        `You can stop sharing at any time by telling your study team or removing TrialWear in your ${a.brand} account.`,
      ].join('\n'),
    });
  }
  await recordActorAudit(ctx.db, actor, {
    action: `${a.provider}.consent.requested`,
    entityType: 'participant',
    entityId: p.id,
    after: { emailed: emailable },
  });
  // When the team keeps no emails, staff hand the link over themselves.
  return { success: true, emailed: emailable, link: link.toString() };
}

export async function authorizeUrl(
  ctx: AppContext,
  a: ProviderAdapter,
  participantId: number,
  linkToken: string,
) {
  const bad = () => new AppError(422, LINK_MESSAGES.badLink, 'ValidationError', { displayToUser: true });
  if (!checkConsentLinkToken(ctx, participantId, a.provider, linkToken)) throw bad();
  if (
    !(await ctx.db.selectFrom('participants').select('id').where('id', '=', participantId).executeTakeFirst())
  )
    throw bad();
  const s = a.settings(ctx);
  const { state, codeChallenge } = await createConsentState(ctx, participantId, a.provider);
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
  url.search = params.toString();
  return { url: url.toString() };
}

export async function completeConsent(
  ctx: AppContext,
  a: ProviderAdapter,
  authCode: string,
  state: string,
  ip: string,
) {
  const { participantId, codeVerifier } = await consumeConsentState(ctx, state, a.provider);
  const tokens = await a.exchangeCode(a.settings(ctx), authCode, codeVerifier);
  if (!tokens.ok) throw new AppError(502, LINK_MESSAGES.authFailed, 'InternalError', { displayToUser: true });
  const catalog = await ctx.db
    .selectFrom('global_device_catalog')
    .select('id')
    .where('device_name', '=', a.catalogDevice)
    .executeTakeFirst();
  const now = ctx.now();
  const deviceId = await ctx.db.transaction().execute(async (trx) => {
    const existing = await findLink({ ...ctx, db: trx }, a, participantId);
    const values = {
      authorization_status: 'authorized' as const,
      authorization_date: now,
      provider_user_id: tokens.data.providerUserId,
      updated_at: now,
    };
    const id = existing
      ? (
          await trx
            .updateTable('participant_devices')
            .set(values)
            .where('id', '=', existing.id)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
      : (
          await trx
            .insertInto('participant_devices')
            .values({
              participant_id: participantId,
              provider: a.provider,
              global_device_catalog_id: catalog?.id ?? null,
              ...values,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
    await saveTokens({ ...ctx, db: trx }, id, tokens.data);
    return id;
  });
  await recordAudit(ctx.db, {
    userId: null,
    teamId: null,
    action: `${a.provider}.authorized`,
    entityType: 'participant',
    entityId: participantId,
    after: { participantDeviceId: deviceId },
    ip,
  });
  return {
    success: true,
    message: `Your ${a.brand} is now connected to your study. You may close this page.`,
  };
}

export async function linkStatus(ctx: AppContext, a: ProviderAdapter, actor: Actor, participantId: number) {
  await getParticipant(ctx, actor, participantId);
  const link = await findLink(ctx, a, participantId);
  return {
    status: (link?.authorization_status ?? 'none') as 'none' | 'pending' | 'authorized' | 'revoked' | 'error',
    authorizationDate: link?.authorization_date ? new Date(link.authorization_date).toISOString() : null,
    revokeAvailable: a.revoke !== null,
  };
}

export async function isAuthorized(ctx: AppContext, a: ProviderAdapter, actor: Actor, participantId: number) {
  await getParticipant(ctx, actor, participantId);
  const link = await findLink(ctx, a, participantId);
  return {
    message: (link?.authorization_status === 'authorized' ? 'found' : 'not found') as 'found' | 'not found',
  };
}

function refresher(a: ProviderAdapter, ctx: AppContext) {
  const s = a.settings(ctx);
  return async (refreshToken: string) => {
    const fresh = await a.refresh(s, refreshToken);
    if (!fresh.ok) throw Object.assign(new Error(fresh.message), { failure: fresh });
    return fresh.data;
  };
}

/** The participant's devices of this provider; an expired token is refreshed once and the call retried once. */
export async function listDevices(
  ctx: AppContext,
  a: ProviderAdapter,
  actor: Actor,
  participantId: number,
): Promise<DeviceEntry[]> {
  await getParticipant(ctx, actor, participantId);
  const link = await findLink(ctx, a, participantId);
  if (link?.authorization_status !== 'authorized') return [];
  const s = a.settings(ctx);
  let tokens = await loadTokens(ctx, link.id);
  if (!tokens) return [errorEntry('Authentication required')];
  let res = await a.devices(s, tokens.accessToken, ctx.now());
  if (!res.ok && a.needsRefresh(res)) {
    try {
      tokens = await refreshOnce(ctx, link.id, tokens.version, refresher(a, ctx));
    } catch (err) {
      const f = (err as { failure?: ProviderFailure }).failure;
      // A refresh token the provider refuses (revoked, reused) means the participant must authorize again.
      if (f && (f.status === 400 || f.status === 401)) return [errorEntry('Authentication required')];
      return [errorEntry(f?.status === 0 ? 'Connection error' : 'Auth check failed')];
    }
    res = await a.devices(s, tokens.accessToken, ctx.now());
  }
  if (!res.ok)
    return [
      errorEntry(
        res.errorType === 'parse' || res.errorType === 'processing'
          ? 'Processing failed'
          : deviceErrorLabel(res),
      ),
    ];
  return res.data;
}

export async function refreshParticipantToken(
  ctx: AppContext,
  a: ProviderAdapter,
  actor: Actor,
  participantId: number,
) {
  await getParticipant(ctx, actor, participantId);
  const link = await findLink(ctx, a, participantId);
  const tokens = link && (await loadTokens(ctx, link.id));
  if (!link || !tokens) throw notFound(LINK_MESSAGES.notLinked);
  try {
    await refreshOnce(ctx, link.id, tokens.version, refresher(a, ctx));
  } catch {
    throw new AppError(502, LINK_MESSAGES.refreshFailed, 'InternalError', { displayToUser: true });
  }
  await recordActorAudit(ctx.db, actor, {
    action: `${a.provider}.token.refreshed`,
    entityType: 'participant',
    entityId: participantId,
  });
  return { success: true, message: 'Token refreshed' };
}

export async function revokeParticipant(
  ctx: AppContext,
  a: ProviderAdapter,
  actor: Actor,
  participantId: number,
) {
  await getParticipant(ctx, actor, participantId);
  const link = await findLink(ctx, a, participantId);
  if (!link) throw notFound(LINK_MESSAGES.notLinked);
  const tokens = await loadTokens(ctx, link.id);
  if (tokens) {
    if (a.revoke) {
      const res = await a.revoke(a.settings(ctx), tokens.refreshToken ?? tokens.accessToken);
      // A token the provider no longer knows is already revoked; anything else must not be hidden.
      if (!res.ok && res.status !== 400 && res.status !== 401) {
        throw new AppError(502, LINK_MESSAGES.revokeFailed, 'InternalError', { displayToUser: true });
      }
    }
    await deleteTokens(ctx, link.id);
  }
  await ctx.db
    .updateTable('participant_devices')
    .set({ authorization_status: 'revoked', updated_at: ctx.now() })
    .where('id', '=', link.id)
    .execute();
  await recordActorAudit(ctx.db, actor, {
    action: `${a.provider}.revoked`,
    entityType: 'participant',
    entityId: participantId,
  });
  return { success: true, message: 'Access revoked' };
}
