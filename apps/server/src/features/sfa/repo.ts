import type { Db } from '../../db/database.js';

/** A new authenticator secret, not yet confirmed by a first code. */
export async function saveTotpSecret(db: Db, userId: number, secretEnc: string, now: Date) {
  await db
    .updateTable('users')
    .set({ sfa_secret_enc: secretEnc, sfa_enabled: false, sfa_type: null, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function enableTotp(db: Db, userId: number, step: number, now: Date) {
  await db
    .updateTable('users')
    .set({
      sfa_enabled: true,
      sfa_type: 'totp',
      sfa_last_totp_step: String(step),
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
}

/** Atomic check-and-set: the same step is never accepted twice, even by two requests at once. */
export async function claimTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const updated = await db
    .updateTable('users')
    .set({ sfa_last_totp_step: String(step) })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('sfa_last_totp_step', 'is', null), eb('sfa_last_totp_step', '<', String(step))]))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Spends a live emailed code; false when there is none with this hash. */
export async function useEmailCode(db: Db, userId: number, codeHash: string, now: Date): Promise<boolean> {
  const used = await db
    .updateTable('email_sfa_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .executeTakeFirst();
  return !!used;
}

/** Ends every live emailed code of the user (one live code at a time). */
export async function expireEmailCodes(db: Db, userId: number, now: Date) {
  await db
    .updateTable('email_sfa_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

export async function insertEmailCode(db: Db, userId: number, codeHash: string, now: Date, expiresAt: Date) {
  await db
    .insertInto('email_sfa_codes')
    .values({ user_id: userId, code_hash: codeHash, created_at: now, expires_at: expiresAt })
    .execute();
}

export async function clearSecondFactor(db: Db, userId: number, now: Date) {
  await db
    .updateTable('users')
    .set({
      sfa_enabled: false,
      sfa_type: null,
      sfa_secret_enc: null,
      sfa_last_totp_step: null,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
}
