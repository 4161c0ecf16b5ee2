/*
 * The two single-use secrets of a consent.
 *
 * The consent LINK (emailed, or handed over by staff): `?id=<participant>&t=<token>`.
 * The token is random and stored only as its SHA-256; a link is valid for 7
 * days and spent when a device is linked through it, and a participant gets
 * at most 3 links an hour per brand, so an inbox cannot be flooded.
 *
 * The OAuth STATE sent to the provider: "<participantId>.<nonce>.<signature>".
 * The participant id stays readable (the spec says state is the participant
 * id), the HMAC stops forgery, and the nonce row (10 minutes, spent once at
 * the callback) stops replay. The PKCE verifier and the link that started the
 * consent wait in the same row.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CONSENT_LINKS, LINK_MESSAGES, type LinkProvider, type Provider } from '@trialwear/contract';
import { AppError } from '../../access/errors.js';
import type { ParticipantScope } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import * as repo from './repo.js';

const STATE_TTL_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

const sign = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`oauth-state:${payload}`).digest('base64url');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const linkError = (message: string) => new AppError(422, message, 'ValidationError', { displayToUser: true });

/** A new consent link token for a participant (the caller has checked the participant is the actor's). */
export async function issueConsentLink(
  ctx: AppContext,
  participant: ParticipantScope,
  provider: Provider,
  createdBy: number,
): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.lockParticipant(trx, participant);
    const recent = await repo.countRecentConsentLinks(
      trx,
      participant,
      provider,
      new Date(now.getTime() - 3_600_000),
    );
    if (recent >= CONSENT_LINKS.maxRequestsPerHour)
      throw new AppError(429, LINK_MESSAGES.tooManyRequests, 'RateLimited', { displayToUser: true });
    await repo.insertConsentLink(trx, participant, {
      tokenHash: sha256(token),
      provider,
      createdBy,
      now,
      expiresAt: new Date(now.getTime() + CONSENT_LINKS.validDays * DAY_MS),
    });
  });
  return token;
}

/** The link must be this participant's, for this provider, unspent and unexpired; returns its token hash. */
export async function checkConsentLink(
  ctx: AppContext,
  participantId: number,
  provider: Provider,
  token: string,
) {
  const tokenHash = sha256(token);
  const link = await repo.findConsentLink(ctx.db, tokenHash);
  if (!link || link.participant_id !== participantId || link.provider !== provider)
    throw linkError(LINK_MESSAGES.badLink);
  if (link.used_at) throw linkError(LINK_MESSAGES.linkUsed);
  if (new Date(link.expires_at).getTime() <= ctx.now().getTime()) throw linkError(LINK_MESSAGES.linkExpired);
  return tokenHash;
}

export async function createConsentState(
  ctx: AppContext,
  participantId: number,
  /** The API the consent goes through (a Fitbit consent: legacy or Google Health). */
  provider: LinkProvider,
  consentTokenHash: string,
) {
  const nonce = randomBytes(16).toString('base64url');
  const codeVerifier = randomBytes(32).toString('base64url');
  const now = ctx.now();
  await repo.insertOAuthState(ctx.db, {
    nonce,
    participantId,
    provider,
    codeVerifier,
    consentTokenHash,
    now,
    expiresAt: new Date(now.getTime() + STATE_TTL_MS),
  });
  const payload = `${participantId}.${nonce}`;
  return {
    state: `${payload}.${sign(ctx.secrets.sessionSecret, payload)}`,
    codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url'),
  };
}

/** Verifies and spends a state; returns the participant, the PKCE verifier and the consent link. */
export async function consumeConsentState(ctx: AppContext, state: string, provider: LinkProvider) {
  const [id, nonce, mac] = state.split('.');
  if (!id || !nonce || !mac || !/^\d{1,9}$/.test(id)) throw linkError(LINK_MESSAGES.invalidState);
  if (!sameText(sign(ctx.secrets.sessionSecret, `${id}.${nonce}`), mac))
    throw linkError(LINK_MESSAGES.invalidState);
  const row = await repo.spendOAuthState(ctx.db, {
    nonce,
    participantId: Number(id),
    provider,
    now: ctx.now(),
  });
  if (!row) throw linkError(LINK_MESSAGES.invalidState);
  return {
    participantId: row.participant_id,
    codeVerifier: row.code_verifier,
    consentTokenHash: row.consent_token_hash,
  };
}
