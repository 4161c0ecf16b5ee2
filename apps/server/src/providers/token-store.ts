/*
 * Provider tokens, encrypted at rest (AES-256-GCM) and never sent to the
 * browser. A refresh is single-flight per participant device: in this process
 * through a shared promise, across processes through a row lock; and the
 * rotated refresh token is committed before the new access token is used
 * (providers rotate refresh tokens: losing the new one loses the link).
 */
import type { Db } from '../db/database.js';
import { decryptSecret, encryptSecret } from '../security/encryption.js';
import * as repo from './tokens-repo.js';

/** What token handling needs: the database, the key and the clock. */
export interface TokenContext {
  db: Db;
  secrets: { encryptionKey: Buffer };
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

export async function loadTokens(
  ctx: TokenContext,
  participantDeviceId: number,
): Promise<StoredTokens | null> {
  const row = await repo.findTokens(ctx.db, participantDeviceId);
  if (!row) return null;
  const key = ctx.secrets.encryptionKey;
  return {
    accessToken: decryptSecret(key, row.access_token_enc),
    refreshToken: row.refresh_token_enc ? decryptSecret(key, row.refresh_token_enc) : null,
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
      const current = decryptSecret(ctx.secrets.encryptionKey, row.refresh_token_enc);
      const fresh = await refresh(current);
      // A provider that does not rotate (Google) answers no refresh token: the stored one stays valid.
      await saveTokens({ ...ctx, db: trx }, participantDeviceId, {
        ...fresh,
        refresh_token: fresh.refresh_token ?? current,
      });
    });
    const tokens = await loadTokens(ctx, participantDeviceId);
    if (!tokens) throw new Error('Tokens vanished during refresh');
    return tokens;
  })().finally(() => inFlight.delete(participantDeviceId));
  inFlight.set(participantDeviceId, job);
  return job;
}
