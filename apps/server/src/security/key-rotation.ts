/*
 * `npm run cli -- rotate-encryption-key`: re-seals every stored secret
 * (provider tokens, TOTP seeds: SEALED_TABLES) under the current
 * ENCRYPTION_KEY, reading the old values with ENCRYPTION_KEYS_PREVIOUS.
 *
 * - In batches, each its own transaction: a stop loses nothing and a new run
 *   resumes, since it only looks at values not yet sealed under the current key.
 * - A value no configured key opens is counted (`undecryptable`), left as
 *   it is and skipped; the run exits 1 so the operator knows a key is missing.
 * - A row changed meanwhile (a token refreshed by a server) is left alone:
 *   the server wrote it with its key, and a later run picks it up if needed.
 */
import type { Db } from '../db/database.js';
import {
  decryptSecret,
  encryptSecret,
  type Keyring,
  keyId,
  sealedPrefix,
  UndecryptableSecret,
} from './encryption.js';
import { reseal, rowsToReseal, SEALED_TABLES } from './key-rotation-repo.js';

export interface RotationCounts {
  resealed: number;
  undecryptable: number;
  changedMeanwhile: number;
}

export interface RotationResult {
  keyId: string;
  tables: Record<string, RotationCounts>;
  batches: number;
  ms: number;
}

export async function rotateEncryptionKey(
  db: Db,
  keys: Keyring,
  opts: { batchSize?: number; log?: (m: string) => void } = {},
): Promise<RotationResult> {
  const started = Date.now();
  const batchSize = opts.batchSize ?? 500;
  const prefix = sealedPrefix(keys.encryptionKey);
  const result: RotationResult = { keyId: keyId(keys.encryptionKey), tables: {}, batches: 0, ms: 0 };
  for (const t of SEALED_TABLES) {
    const counts: RotationCounts = { resealed: 0, undecryptable: 0, changedMeanwhile: 0 };
    result.tables[t.table] = counts;
    let afterId = 0;
    for (;;) {
      const rows = await rowsToReseal(db, t, prefix, afterId, batchSize);
      if (rows.length === 0) break;
      result.batches++;
      await db.transaction().execute(async (trx) => {
        for (const row of rows) {
          let after: Array<string | null>;
          try {
            after = row.values.map((v) =>
              v === null || v.startsWith(prefix)
                ? v
                : encryptSecret(keys.encryptionKey, decryptSecret(keys, v)),
            );
          } catch (err) {
            if (!(err instanceof UndecryptableSecret)) throw err;
            counts.undecryptable++;
            opts.log?.(`${t.table} ${t.key}=${row.id}: cannot be decrypted (${err.message}); left as it is`);
            continue;
          }
          if (await reseal(trx, t, row.id, row.values, after)) counts.resealed++;
          else counts.changedMeanwhile++;
        }
      });
      afterId = rows[rows.length - 1]!.id;
    }
  }
  result.ms = Date.now() - started;
  return result;
}
