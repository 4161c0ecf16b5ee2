/*
 * Provider tokens, encrypted at rest (AES-256-GCM) and never sent to the
 * browser. A refresh is single-flight per participant device: in this process
 * through a shared promise, across processes through a row lock; and the
 * rotated refresh token is committed before the new access token is used
 * (providers rotate refresh tokens: losing the new one loses the link).
 */
import type { Db } from '../db/database.js';
import { decryptSecret, encryptSecret, type Keyring, UndecryptableSecret } from '../security/encryption.js';
import * as repo from './tokens-repo.js';

/** What token handling needs: the database, the key and the clock. */
export interface TokenContext {
  db: Db;
  secrets: Keyring;
  now: () => Date;
}

export interface StoredTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  version: number;
}

export interface FreshTokens {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
}

export async function saveTokens(ctx: TokenContext, participantDeviceId: number, t: FreshTokens) {
  const key = ctx.secrets.encryptionKey;
  const now = ctx.now();
  await repo.upsertTokens(ctx.db, participantDeviceId, {
    access_token_enc: encryptSecret(key, t.access_token),
    refresh_token_enc: t.refresh_token ? encryptSecret(key, t.refresh_token) : null,
    scope: t.scope ?? null,
    token_type: 'Bearer',
    expires_at: t.expires_in ? new Date(now.getTime() + t.expires_in * 1000) : null,
    updated_at: now,
  });
}

/**
 * Decrypts one stored token. A value no configured key opens is logged with
 * its cause (never the value) and thrown as UndecryptableSecret: callers turn
 * it into the device card's error label or a 502, never a 500, and nothing
 * stored is changed (the right key, or ENCRYPTION_KEYS_PREVIOUS, opens it again).
 */
function openToken(ctx: TokenContext, participantDeviceId: number, sealed: string): string {
  try {
    return decryptSecret(ctx.secrets, sealed);
  } catch (err) {
    if (err instanceof UndecryptableSecret)
      console.error(
        `[trialwear] the stored provider token of participant device ${participantDeviceId} cannot be decrypted: ${err.message}`,
      );
    throw err;
  }
}

export async function loadTokens(
  ctx: TokenContext,
  participantDeviceId: number,
): Promise<StoredTokens | null> {
  const row = await repo.findTokens(ctx.db, participantDeviceId);
  if (!row) return null;
  return {
    accessToken: openToken(ctx, participantDeviceId, row.access_token_enc),
    refreshToken: row.refresh_token_enc ? openToken(ctx, participantDeviceId, row.refresh_token_enc) : null,
    expiresAt: row.expires_at ? new Date(row.expires_at) : null,
    version: row.version,
  };
}

export const deleteTokens = (ctx: Pick<TokenContext, 'db'>, participantDeviceId: number) =>
  repo.deleteTokens(ctx.db, participantDeviceId);

const inFlight = new Map<number, Promise<StoredTokens>>();

/**
 * Refresh once for everyone who saw `staleVersion`. Under the row lock, a
 * newer version means someone else already refreshed: use theirs.
 */
export function refreshOnce(
  ctx: TokenContext,
  participantDeviceId: number,
  staleVersion: number,
  refresh: (refreshToken: string) => Promise<FreshTokens>,
): Promise<StoredTokens> {
  const pending = inFlight.get(participantDeviceId);
  if (pending) return pending;
  const job = (async () => {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await repo.lockTokensForRefresh(trx, participantDeviceId);
      if (!row?.refresh_token_enc) throw new Error('No refresh token stored');
      if (row.version !== staleVersion) return; // already refreshed by another request
      const current = openToken(ctx, participantDeviceId, row.refresh_token_enc);
      const fresh = await refresh(current);
      // A provider that does not rotate (Google) answers no refresh token: the stored one stays valid;
      // one that answers no scope keeps the scope granted before (RFC 6749 §6).
      await saveTokens({ ...ctx, db: trx }, participantDeviceId, {
        ...fresh,
        refresh_token: fresh.refresh_token ?? current,
        scope: fresh.scope ?? row.scope ?? undefined,
      });
    });
    const tokens = await loadTokens(ctx, participantDeviceId);
    if (!tokens) throw new Error('Tokens vanished during refresh');
    return tokens;
  })().finally(() => inFlight.delete(participantDeviceId));
  inFlight.set(participantDeviceId, job);
  return job;
}
