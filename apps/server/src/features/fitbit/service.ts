/*
 * Linking a participant's Fitbit (core §4 authorization flow): staff request
 * consent (emailed link) → consent page → Fitbit's authorize page → callback
 * → tokens stored encrypted and the participant-device record authorized.
 * Device lists refresh an expired token once, then retry once (core §4).
 */

import type { AppContext } from '../../app-context.js';
import { recordActorAudit, recordAudit } from '../../audit/audit-log.js';
import type { Actor } from '../../http/actor.js';
import { AppError, notFound } from '../../http/errors.js';
import {
  checkConsentLinkToken,
  consentLinkToken,
  consumeConsentState,
  createConsentState,
} from '../devices/consent-state.js';
import { deleteTokens, loadTokens, refreshOnce, saveTokens } from '../devices/provider-tokens.js';
import { getParticipant } from '../participants/service.js';
import { exchangeCode, type FitbitFailure, getDevices, refreshTokens, revokeToken } from './fitbit-client.js';
import { fitbitSettings } from './fitbit-config.js';

export const FITBIT_MESSAGES = {
  authFailed: 'Unable to complete authorization. Please click Cancel and try again.',
  revokeFailed: 'Something went wrong! We could not revoke the access token',
  refreshFailed: 'Something went wrong! We could not refresh the access token',
  notLinked: 'This participant has no authorized Fitbit.',
  badLink: 'This consent link is not valid.',
} as const;

/** Error-card labels of core §8, from real failures. */
export function deviceErrorLabel(f: Pick<FitbitFailure, 'status' | 'errorType'>): string {
  if (f.status === 429) return 'Rate limit exceeded';
  if (f.status === 401 || f.status === 403) return 'Authentication required';
  if (f.status === 404) return 'Device not found';
  if (f.status === 0) return 'Connection error';
  if (f.status >= 500) return 'Server error';
  return 'Processing failed';
}

async function fitbitLink(ctx: AppContext, participantId: number) {
  return ctx.db
    .selectFrom('participant_devices')
    .selectAll()
    .where('participant_id', '=', participantId)
    .where('provider', 'in', ['fitbit', 'google_health'])
    .executeTakeFirst();
}

export async function requestConsent(ctx: AppContext, actor: Actor, participantId: number) {
  const p = await getParticipant(ctx, actor, participantId);
  const link = `${ctx.config.publicUrl}/PAFitbitConsentPage?id=${p.id}&t=${consentLinkToken(ctx, p.id, 'fitbit')}`;
  const emailable = !p.email.endsWith('@hidden.invalid');
  if (emailable) {
    await ctx.mailer.send({
      to: p.email,
      subject: 'Please connect your Fitbit to your study',
      text: [
        'Hello,',
        '',
        'Your study team asks you to share your Fitbit data with the study through TrialWear.',
        'Open this link, sign in to Fitbit and choose Allow:',
        '',
        link,
        '',
        'You can stop sharing at any time by telling your study team or removing TrialWear in your Fitbit account.',
      ].join('\n'),
    });
  }
  await recordActorAudit(ctx.db, actor, {
    action: 'fitbit.consent.requested',
    entityType: 'participant',
    entityId: p.id,
    after: { emailed: emailable },
  });
  // When the team keeps no emails, staff hand the link over themselves.
  return { success: true, emailed: emailable, link };
}

export async function authorizeUrl(ctx: AppContext, participantId: number, linkToken: string) {
  if (!checkConsentLinkToken(ctx, participantId, 'fitbit', linkToken)) {
    throw new AppError(422, FITBIT_MESSAGES.badLink, 'ValidationError', { displayToUser: true });
  }
  const exists = await ctx.db
    .selectFrom('participants')
    .select('id')
    .where('id', '=', participantId)
    .executeTakeFirst();
  if (!exists) throw new AppError(422, FITBIT_MESSAGES.badLink, 'ValidationError', { displayToUser: true });
  const s = fitbitSettings(ctx);
  const { state, codeChallenge } = await createConsentState(ctx, participantId, 'fitbit');
  const url = new URL(s.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: s.clientId,
    response_type: 'code',
    redirect_uri: s.redirectUri,
    scope: s.scopes.join(' '),
    state,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
  }).toString();
  return { url: url.toString() };
}

export async function completeConsent(ctx: AppContext, authCode: string, state: string, ip: string) {
  const { participantId, codeVerifier } = await consumeConsentState(ctx, state, 'fitbit');
  const s = fitbitSettings(ctx);
  const tokens = await exchangeCode(s, authCode, codeVerifier);
  if (!tokens.ok)
    throw new AppError(502, FITBIT_MESSAGES.authFailed, 'InternalError', { displayToUser: true });
  const catalog = await ctx.db
    .selectFrom('global_device_catalog')
    .select('id')
    .where('device_name', '=', 'Fitbit Smartwatches & Trackers')
    .executeTakeFirst();
  const now = ctx.now();
  const deviceId = await ctx.db.transaction().execute(async (trx) => {
    const existing = await fitbitLink({ ...ctx, db: trx }, participantId);
    const values = {
      authorization_status: 'authorized' as const,
      authorization_date: now,
      provider_user_id: tokens.data.user_id,
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
              provider: 'fitbit',
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
    action: 'fitbit.authorized',
    entityType: 'participant',
    entityId: participantId,
    after: { participantDeviceId: deviceId },
    ip,
  });
  return { success: true, message: 'Your Fitbit is now connected to your study. You may close this page.' };
}

export async function isAuthorized(ctx: AppContext, actor: Actor, participantId: number) {
  await getParticipant(ctx, actor, participantId);
  const link = await fitbitLink(ctx, participantId);
  return { message: link?.authorization_status === 'authorized' ? 'found' : 'not found' };
}

export interface DeviceEntry {
  device: 'fitness tracker' | 'scale' | 'Error';
  batteryLevel: number | null;
  battery: string | null;
  deviceVersion: string | null;
  deviceType: 'TRACKER' | 'SCALE' | null;
  lastSyncTime: string | null;
  hasError: boolean;
  errorType: string | null;
}

const errorEntry = (errorType: string): DeviceEntry => ({
  device: 'Error',
  batteryLevel: null,
  battery: null,
  deviceVersion: null,
  deviceType: null,
  lastSyncTime: null,
  hasError: true,
  errorType,
});

/** The participant's Fitbit devices; an expired token is refreshed once and the call retried once. */
export async function listDevices(
  ctx: AppContext,
  actor: Actor,
  participantId: number,
): Promise<DeviceEntry[]> {
  await getParticipant(ctx, actor, participantId);
  const link = await fitbitLink(ctx, participantId);
  if (link?.authorization_status !== 'authorized') return [];
  const s = fitbitSettings(ctx);
  let tokens = await loadTokens(ctx, link.id);
  if (!tokens) return [errorEntry('Authentication required')];
  let res = await getDevices(s, tokens.accessToken);
  if (!res.ok && res.errorType === 'expired_token') {
    try {
      tokens = await refreshOnce(ctx, link.id, tokens.version, async (rt) => {
        const fresh = await refreshTokens(s, rt);
        if (!fresh.ok) throw Object.assign(new Error(fresh.message), { failure: fresh });
        return fresh.data;
      });
    } catch {
      return [errorEntry('Auth check failed')];
    }
    res = await getDevices(s, tokens.accessToken);
  }
  if (!res.ok) return [errorEntry(deviceErrorLabel(res))];
  if (!Array.isArray(res.data)) return [errorEntry('Processing failed')];
  return res.data.map((d) => ({
    device: d.type === 'SCALE' ? 'scale' : 'fitness tracker',
    batteryLevel: d.batteryLevel,
    battery: d.battery,
    deviceVersion: d.deviceVersion,
    deviceType: d.type,
    lastSyncTime: d.lastSyncTime,
    hasError: false,
    errorType: null,
  }));
}

export async function refreshParticipantToken(ctx: AppContext, actor: Actor, participantId: number) {
  await getParticipant(ctx, actor, participantId);
  const link = await fitbitLink(ctx, participantId);
  const tokens = link && (await loadTokens(ctx, link.id));
  if (!link || !tokens) throw notFound(FITBIT_MESSAGES.notLinked);
  const s = fitbitSettings(ctx);
  try {
    await refreshOnce(ctx, link.id, tokens.version, async (rt) => {
      const fresh = await refreshTokens(s, rt);
      if (!fresh.ok) throw new Error(fresh.message);
      return fresh.data;
    });
  } catch {
    throw new AppError(502, FITBIT_MESSAGES.refreshFailed, 'InternalError', { displayToUser: true });
  }
  await recordActorAudit(ctx.db, actor, {
    action: 'fitbit.token.refreshed',
    entityType: 'participant',
    entityId: participantId,
  });
  return { success: true, message: 'Token refreshed' };
}

export async function revokeParticipant(ctx: AppContext, actor: Actor, participantId: number) {
  await getParticipant(ctx, actor, participantId);
  const link = await fitbitLink(ctx, participantId);
  if (!link) throw notFound(FITBIT_MESSAGES.notLinked);
  const tokens = await loadTokens(ctx, link.id);
  if (tokens) {
    const res = await revokeToken(fitbitSettings(ctx), tokens.refreshToken ?? tokens.accessToken);
    // A token the provider no longer knows is already revoked; anything else must not be hidden.
    if (!res.ok && res.status !== 400 && res.status !== 401) {
      throw new AppError(502, FITBIT_MESSAGES.revokeFailed, 'InternalError', { displayToUser: true });
    }
    await deleteTokens(ctx, link.id);
  }
  await ctx.db
    .updateTable('participant_devices')
    .set({ authorization_status: 'revoked', updated_at: ctx.now() })
    .where('id', '=', link.id)
    .execute();
  await recordActorAudit(ctx.db, actor, {
    action: 'fitbit.revoked',
    entityType: 'participant',
    entityId: participantId,
  });
  return { success: true, message: 'Access revoked' };
}
