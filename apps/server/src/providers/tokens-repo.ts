/** SQL of provider_tokens: one row per participant device, ciphertexts only. */
import type { Db } from '../db/database.js';

export interface TokenRow {
  access_token_enc: string;
  refresh_token_enc: string | null;
  scope: string | null;
  token_type: string;
  expires_at: Date | null;
  updated_at: Date;
}

/** Insert or replace; a replacement bumps `version` so concurrent refreshers can tell. */
export async function upsertTokens(db: Db, participantDeviceId: number, row: TokenRow) {
  await db
    .insertInto('provider_tokens')
    .values({ participant_device_id: participantDeviceId, ...row })
    .onConflict((oc) =>
      oc
        .column('participant_device_id')
        .doUpdateSet((eb) => ({ ...row, version: eb('provider_tokens.version', '+', 1) })),
    )
    .execute();
}

export function findTokens(db: Db, participantDeviceId: number) {
  return db
    .selectFrom('provider_tokens')
    .selectAll()
    .where('participant_device_id', '=', participantDeviceId)
    .executeTakeFirst();
}

/** The row locked for a refresh (FOR UPDATE): one refresher at a time across processes. */
export function lockTokensForRefresh(db: Db, participantDeviceId: number) {
  return db
    .selectFrom('provider_tokens')
    .select(['version', 'refresh_token_enc', 'scope'])
    .where('participant_device_id', '=', participantDeviceId)
    .forUpdate()
    .executeTakeFirst();
}

export async function deleteTokens(db: Db, participantDeviceId: number) {
  await db.deleteFrom('provider_tokens').where('participant_device_id', '=', participantDeviceId).execute();
}
