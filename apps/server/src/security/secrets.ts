/*
 * The encryption key (provider tokens and TOTP seeds, AES-256-GCM) and the
 * session secret (CSRF and device-cookie signatures) come from the
 * environment (ENCRYPTION_KEY, or ENCRYPTION_KEY_FILE for a key kept on other
 * storage, e.g. a mounted secret). With the embedded database (no
 * DATABASE_URL) they are generated once into DATA_DIR/secrets.json (mode
 * 0600) when absent, so that a restart keeps sessions and stored tokens
 * readable. With DATABASE_URL several servers and workers may share the
 * database, and each would generate its own: the server and the worker refuse
 * to start until both are configured (`npm run cli -- gen-secrets` prints a
 * fresh pair). ENCRYPTION_KEYS_PREVIOUS (comma-separated) are older keys still
 * accepted for decryption during a rotation (encryption.ts). A key generated
 * beside the database protects the tokens only as well as DATA_DIR is
 * protected: see SECURITY.md.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Keyring } from './encryption.js';

export interface Secrets extends Keyring {
  encryptionKey: Buffer;
  /** Older keys, for decryption only (ENCRYPTION_KEYS_PREVIOUS). */
  previousKeys: readonly Buffer[];
  sessionSecret: string;
}

/** A fresh pair, as `npm run cli -- gen-secrets` prints it. */
export function generateSecrets() {
  return {
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
}

/** The one line a server or worker prints when DATABASE_URL is set without the shared secrets. */
export function missingSecretsMessage(missing: string[]) {
  return (
    `with DATABASE_URL every server and worker must share the same secrets, and ${missing.join(' and ')} ` +
    `${missing.length > 1 ? 'are' : 'is'} not set: set SESSION_SECRET and ENCRYPTION_KEY (or ENCRYPTION_KEY_FILE) ` +
    'to the same values on every process (`npm run cli -- gen-secrets` prints a fresh pair)'
  );
}

/** The key configured outside DATA_DIR: ENCRYPTION_KEY, or the content of ENCRYPTION_KEY_FILE. */
function configuredKey(config: Config): string | undefined {
  if (config.ENCRYPTION_KEY && config.ENCRYPTION_KEY_FILE)
    throw new Error('Set ENCRYPTION_KEY or ENCRYPTION_KEY_FILE, not both');
  if (!config.ENCRYPTION_KEY_FILE) return config.ENCRYPTION_KEY;
  try {
    return fs.readFileSync(config.ENCRYPTION_KEY_FILE, 'utf8').trim();
  } catch (err) {
    throw new Error(
      `ENCRYPTION_KEY_FILE ${config.ENCRYPTION_KEY_FILE} cannot be read: ${(err as Error).message}`,
    );
  }
}

function previousKeys(config: Config): Buffer[] {
  return (config.ENCRYPTION_KEYS_PREVIOUS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((b64, i) => {
      const key = Buffer.from(b64, 'base64');
      if (key.length !== 32)
        throw new Error(`ENCRYPTION_KEYS_PREVIOUS: key ${i + 1} must be 32 bytes, base64-encoded`);
      return key;
    });
}

export interface LoadSecretsOptions {
  /**
   * Refuse to generate secrets into DATA_DIR when DATABASE_URL is set (the
   * server and the worker): other processes on the database could not read
   * what this one writes.
   */
  requireShared?: boolean;
}

export function loadSecrets(config: Config, opts: LoadSecretsOptions = {}): Secrets {
  const configured = configuredKey(config);
  if (opts.requireShared && config.DATABASE_URL) {
    const missing = [
      ...(config.SESSION_SECRET ? [] : ['SESSION_SECRET']),
      ...(configured ? [] : ['ENCRYPTION_KEY']),
    ];
    if (missing.length) throw new Error(missingSecretsMessage(missing));
  }
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: { encryptionKey?: string; sessionSecret?: string } = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8'));

  const encryptionKeyB64 = configured ?? stored.encryptionKey ?? randomBytes(32).toString('base64');
  const sessionSecret =
    config.SESSION_SECRET ?? stored.sessionSecret ?? randomBytes(32).toString('base64url');
  const encryptionKey = Buffer.from(encryptionKeyB64, 'base64');
  if (encryptionKey.length !== 32)
    throw new Error(
      'The encryption key (ENCRYPTION_KEY or ENCRYPTION_KEY_FILE) must be 32 bytes, base64-encoded',
    );
  const previous = previousKeys(config).filter((k) => !k.equals(encryptionKey));

  if (!configured || !config.SESSION_SECRET) {
    const next = {
      encryptionKey: configured ? stored.encryptionKey : encryptionKeyB64,
      sessionSecret: config.SESSION_SECRET ? stored.sessionSecret : sessionSecret,
    };
    if (next.encryptionKey !== stored.encryptionKey || next.sessionSecret !== stored.sessionSecret) {
      fs.mkdirSync(config.dataDir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify(next, null, 2), { mode: 0o600 });
    }
  }
  return { encryptionKey, previousKeys: previous, sessionSecret };
}
