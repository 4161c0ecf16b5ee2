/*
 * The OAuth `state` of a consent: "<participantId>.<nonce>.<signature>". The
 * participant id stays readable (the spec says state is the participant id),
 * the HMAC stops forgery, and the nonce row (10 minutes, spent once at the
 * callback) stops replay. The PKCE verifier waits in the same row.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { AppError } from '../../http/errors.js';

type Provider = 'fitbit' | 'omron' | 'dexcom';
const TTL_MS = 10 * 60 * 1000;

const sign = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`oauth-state:${payload}`).digest('base64url');

/** The consent link's token: binds the link to one participant, so ids cannot be guessed into consents. */
export const consentLinkToken = (ctx: AppContext, participantId: number, provider: Provider) =>
  sign(ctx.secrets.sessionSecret, `consent:${provider}:${participantId}`).slice(0, 32);

export function checkConsentLinkToken(
  ctx: AppContext,
  participantId: number,
  provider: Provider,
  token: string,
) {
  const expected = Buffer.from(consentLinkToken(ctx, participantId, provider));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export async function createConsentState(ctx: AppContext, participantId: number, provider: Provider) {
  const nonce = randomBytes(16).toString('base64url');
  const codeVerifier = randomBytes(32).toString('base64url');
  const now = ctx.now();
  await ctx.db
    .insertInto('oauth_states')
    .values({
      nonce,
      participant_id: participantId,
      provider,
      code_verifier: codeVerifier,
      created_at: now,
      expires_at: new Date(now.getTime() + TTL_MS),
    })
    .execute();
  const payload = `${participantId}.${nonce}`;
  return {
    state: `${payload}.${sign(ctx.secrets.sessionSecret, payload)}`,
    codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url'),
  };
}

export const INVALID_STATE_MESSAGE = 'Invalid authorization request. Please try again.';
const invalid = () => new AppError(422, INVALID_STATE_MESSAGE, 'ValidationError', { displayToUser: true });

/** Verifies and spends a state; returns the participant and the PKCE verifier. */
export async function consumeConsentState(ctx: AppContext, state: string, provider: Provider) {
  const [id, nonce, mac] = state.split('.');
  if (!id || !nonce || !mac || !/^\d+$/.test(id)) throw invalid();
  const expected = Buffer.from(sign(ctx.secrets.sessionSecret, `${id}.${nonce}`));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
  const row = await ctx.db
    .updateTable('oauth_states')
    .set({ used_at: ctx.now() })
    .where('nonce', '=', nonce)
    .where('participant_id', '=', Number(id))
    .where('provider', '=', provider)
    .where('used_at', 'is', null)
    .where('expires_at', '>', ctx.now())
    .returning(['participant_id', 'code_verifier'])
    .executeTakeFirst();
  if (!row) throw invalid();
  return { participantId: row.participant_id, codeVerifier: row.code_verifier };
}
