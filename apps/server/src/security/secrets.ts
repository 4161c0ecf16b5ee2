/*
 * The encryption key (provider tokens and TOTP seeds, AES-256-GCM) and the
 * session secret (CSRF and device-cookie signatures) come from the
 * environment (ENCRYPTION_KEY, or ENCRYPTION_KEY_FILE for a key kept on other
 * storage, e.g. a mounted secret); when absent they are generated once into
 * DATA_DIR/secrets.json (mode 0600) so that a restart keeps sessions and
 * stored tokens readable. A key generated beside the database protects the
 * tokens only as well as DATA_DIR is protected: see SECURITY.md.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

export interface Secrets {
  encryptionKey: Buffer;
  sessionSecret: string;
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

export function loadSecrets(config: Config): Secrets {
  const configured = configuredKey(config);
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
  return { encryptionKey, sessionSecret };
}
