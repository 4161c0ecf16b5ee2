import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, keyId, sealedPrefix, UndecryptableSecret } from './encryption.js';

/** A value as the portal wrote it before key ids (v1.<iv>.<tag>.<data>). */
function sealV1(key: Buffer, plaintext: string) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

describe('secrets at rest', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  it('names its key: v2.<key id>., and round-trips', () => {
    const sealed = encryptSecret(newKey, 'fitbit.at.123');
    expect(sealed.startsWith(sealedPrefix(newKey))).toBe(true);
    expect(sealed).toMatch(/^v2\.[\w-]{11}\./);
    expect(sealed).not.toContain('fitbit');
    expect(decryptSecret(newKey, sealed)).toBe('fitbit.at.123');
  });

  it('opens values of a previous key through the keyring, v1 values included', () => {
    const ring = { encryptionKey: newKey, previousKeys: [oldKey] };
    expect(decryptSecret(ring, encryptSecret(oldKey, 'seed'))).toBe('seed');
    expect(decryptSecret(ring, sealV1(oldKey, 'legacy'))).toBe('legacy');
    expect(decryptSecret(newKey, sealV1(newKey, 'legacy'))).toBe('legacy');
  });

  it('a value no configured key opens is UndecryptableSecret, naming the key id and never the value', () => {
    const sealed = encryptSecret(oldKey, 'do-not-print-me');
    let err: unknown;
    try {
      decryptSecret(newKey, sealed);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UndecryptableSecret);
    expect((err as Error).message).toBe(
      `sealed with key id ${keyId(oldKey)}, which is neither ENCRYPTION_KEY (${keyId(newKey)}) nor one of ENCRYPTION_KEYS_PREVIOUS`,
    );
    expect(() => decryptSecret(newKey, sealV1(oldKey, 'x'))).toThrow(UndecryptableSecret);
    // A damaged value under the right key, and something that is no sealed value at all.
    const damaged = `${sealed.slice(0, -2)}AA`;
    expect(() => decryptSecret(oldKey, damaged)).toThrow(/integrity check/);
    expect(() => decryptSecret(oldKey, 'plain')).toThrow(UndecryptableSecret);
  });
});
