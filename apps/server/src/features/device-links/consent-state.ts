/*
 * The OAuth `state` of a consent: "<participantId>.<nonce>.<signature>". The
 * participant id stays readable (the spec says state is the participant id),
 * the HMAC stops forgery, and the nonce row (10 minutes, spent once at the
 * callback) stops replay. The PKCE verifier waits in the same row.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LINK_MESSAGES, type Provider } from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { AppError } from '../../http/errors.js';
import * as repo from './repo.js';

const TTL_MS = 10 * 60 * 1000;

const sign = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`oauth-state:${payload}`).digest('base64url');

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The consent link's token: binds the link to one participant, so ids cannot be guessed into consents. */
export const consentLinkToken = (ctx: AppContext, participantId: number, provider: Provider) =>
  sign(ctx.secrets.sessionSecret, `consent:${provider}:${participantId}`).slice(0, 32);

export const checkConsentLinkToken = (
  ctx: AppContext,
  participantId: number,
  provider: Provider,
  token: string,
) => sameText(consentLinkToken(ctx, participantId, provider), token);

export async function createConsentState(ctx: AppContext, participantId: number, provider: Provider) {
  const nonce = randomBytes(16).toString('base64url');
  const codeVerifier = randomBytes(32).toString('base64url');
  const now = ctx.now();
  await repo.insertOAuthState(ctx.db, {
    nonce,
    participantId,
    provider,
    codeVerifier,
    now,
    expiresAt: new Date(now.getTime() + TTL_MS),
  });
  const payload = `${participantId}.${nonce}`;
  return {
    state: `${payload}.${sign(ctx.secrets.sessionSecret, payload)}`,
    codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url'),
  };
}

const invalid = () =>
  new AppError(422, LINK_MESSAGES.invalidState, 'ValidationError', { displayToUser: true });

/** Verifies and spends a state; returns the participant and the PKCE verifier. */
export async function consumeConsentState(ctx: AppContext, state: string, provider: Provider) {
  const [id, nonce, mac] = state.split('.');
  if (!id || !nonce || !mac || !/^\d{1,9}$/.test(id)) throw invalid();
  if (!sameText(sign(ctx.secrets.sessionSecret, `${id}.${nonce}`), mac)) throw invalid();
  const row = await repo.spendOAuthState(ctx.db, {
    nonce,
    participantId: Number(id),
    provider,
    now: ctx.now(),
  });
  if (!row) throw invalid();
  return { participantId: row.participant_id, codeVerifier: row.code_verifier };
}
