/*
 * AES-256-GCM for secrets at rest (provider tokens, TOTP seeds).
 *
 * Format: v2.<key id>.<iv>.<tag>.<ciphertext>, each base64url; the key id is
 * the first 8 bytes of the key's SHA-256, so a value names the key that sealed
 * it (never the key itself). Values written before key ids existed are
 * v1.<iv>.<tag>.<ciphertext>: every configured key is tried on them.
 *
 * Decryption takes a keyring: the current key (ENCRYPTION_KEY) and the
 * previous ones (ENCRYPTION_KEYS_PREVIOUS), so a key can be rotated without
 * a stop: set the new key with the old one as previous on every process,
 * then `npm run cli -- rotate-encryption-key` re-seals every value under the
 * new key (rows whose value does not start with `v2.<current id>.`).
 * A value no configured key opens throws UndecryptableSecret, whose message
 * names the cause (which key id was asked for), never the value.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** The keys a process can decrypt with; the first (`encryptionKey`) is the one it encrypts with. */
export interface Keyring {
  encryptionKey: Buffer;
  previousKeys?: readonly Buffer[];
}

/** A stored secret that no configured key opens (wrong key, key rotated away, or a damaged value). */
export class UndecryptableSecret extends Error {
  override name = 'UndecryptableSecret';
}

/** The id a sealed value carries for its key: 8 bytes of the key's SHA-256, base64url. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest().subarray(0, 8).toString('base64url');
}

/** The prefix of every value sealed with this key (what the rotation looks for). */
export const sealedPrefix = (key: Buffer) => `v2.${keyId(key)}.`;

export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    'v2',
    keyId(key),
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    data.toString('base64url'),
  ].join('.');
}

function open(key: Buffer, iv: string, tag: string, data: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

const keysOf = (keys: Buffer | Keyring): Buffer[] =>
  Buffer.isBuffer(keys) ? [keys] : [keys.encryptionKey, ...(keys.previousKeys ?? [])];

export function decryptSecret(keys: Buffer | Keyring, sealed: string): string {
  const ring = keysOf(keys);
  const parts = sealed.split('.');
  if (parts[0] === 'v2' && parts.length === 5) {
    const [, id, iv, tag, data] = parts as [string, string, string, string, string];
    const key = ring.find((k) => keyId(k) === id);
    if (!key)
      throw new UndecryptableSecret(
        `sealed with key id ${id}, which is neither ENCRYPTION_KEY (${keyId(ring[0]!)}) nor one of ENCRYPTION_KEYS_PREVIOUS`,
      );
    try {
      return open(key, iv, tag, data);
    } catch {
      throw new UndecryptableSecret(`the value sealed with key id ${id} fails its integrity check (damaged)`);
    }
  }
  if (parts[0] === 'v1' && parts.length === 4) {
    const [, iv, tag, data] = parts as [string, string, string, string];
    for (const key of ring) {
      try {
        return open(key, iv, tag, data);
      } catch {
        // the next key
      }
    }
    throw new UndecryptableSecret(
      'a v1 value (no key id) that neither ENCRYPTION_KEY nor ENCRYPTION_KEYS_PREVIOUS opens',
    );
  }
  throw new UndecryptableSecret('unknown secret format');
}
