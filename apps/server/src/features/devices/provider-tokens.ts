/*
 * Provider tokens, encrypted at rest (AES-256-GCM) and never sent to the
 * browser. A refresh is single-flight per participant device: in this process
 * through a shared promise, across processes through a row lock; and the
 * rotated refresh token is committed before the new access token is used.
 */
import type { AppContext } from '../../app-context.js';
import { decryptSecret, encryptSecret } from '../../security/encryption.js';

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

export async function saveTokens(ctx: AppContext, participantDeviceId: number, t: FreshTokens) {
  const key = ctx.secrets.encryptionKey;
  const now = ctx.now();
  const row = {
    access_token_enc: encryptSecret(key, t.access_token),
    refresh_token_enc: t.refresh_token ? encryptSecret(key, t.refresh_token) : null,
    scope: t.scope ?? null,
    token_type: 'Bearer',
    expires_at: t.expires_in ? new Date(now.getTime() + t.expires_in * 1000) : null,
    updated_at: now,
  };
  await ctx.db
    .insertInto('provider_tokens')
    .values({ participant_device_id: participantDeviceId, ...row })
    .onConflict((oc) =>
      oc
        .column('participant_device_id')
        .doUpdateSet((eb) => ({ ...row, version: eb('provider_tokens.version', '+', 1) })),
    )
    .execute();
}

export async function loadTokens(ctx: AppContext, participantDeviceId: number): Promise<StoredTokens | null> {
  const row = await ctx.db
    .selectFrom('provider_tokens')
    .selectAll()
    .where('participant_device_id', '=', participantDeviceId)
    .executeTakeFirst();
  if (!row) return null;
  const key = ctx.secrets.encryptionKey;
  return {
    accessToken: decryptSecret(key, row.access_token_enc),
    refreshToken: row.refresh_token_enc ? decryptSecret(key, row.refresh_token_enc) : null,
    expiresAt: row.expires_at ? new Date(row.expires_at) : null,
    version: row.version,
  };
}

export async function deleteTokens(ctx: AppContext, participantDeviceId: number) {
  await ctx.db
    .deleteFrom('provider_tokens')
    .where('participant_device_id', '=', participantDeviceId)
    .execute();
}

const inFlight = new Map<number, Promise<StoredTokens>>();

/**
 * Refresh once for everyone who saw `staleVersion`. Under the row lock, a
 * newer version means someone else already refreshed: use theirs.
 */
export function refreshOnce(
  ctx: AppContext,
  participantDeviceId: number,
  staleVersion: number,
  refresh: (refreshToken: string) => Promise<FreshTokens>,
): Promise<StoredTokens> {
  const pending = inFlight.get(participantDeviceId);
  if (pending) return pending;
  const job = (async () => {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('provider_tokens')
        .select(['version', 'refresh_token_enc'])
        .where('participant_device_id', '=', participantDeviceId)
        .forUpdate()
        .executeTakeFirst();
      if (!row?.refresh_token_enc) throw new Error('No refresh token stored');
      if (row.version !== staleVersion) return; // already refreshed by another request
      const fresh = await refresh(decryptSecret(ctx.secrets.encryptionKey, row.refresh_token_enc));
      await saveTokens({ ...ctx, db: trx }, participantDeviceId, fresh);
    });
    return (await loadTokens(ctx, participantDeviceId))!;
  })().finally(() => inFlight.delete(participantDeviceId));
  inFlight.set(participantDeviceId, job);
  return job;
}
