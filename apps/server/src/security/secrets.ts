/*
 * The encryption key (provider tokens, AES-256-GCM) and the session secret
 * (CSRF and device-cookie signatures) come from the environment; when absent
 * they are generated once into DATA_DIR/secrets.json (mode 0600) so that a
 * restart keeps sessions and stored tokens readable.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

export interface Secrets {
  encryptionKey: Buffer;
  sessionSecret: string;
}

export function loadSecrets(config: Config): Secrets {
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: { encryptionKey?: string; sessionSecret?: string } = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8'));

  const encryptionKeyB64 =
    config.ENCRYPTION_KEY ?? stored.encryptionKey ?? randomBytes(32).toString('base64');
  const sessionSecret =
    config.SESSION_SECRET ?? stored.sessionSecret ?? randomBytes(32).toString('base64url');
  const encryptionKey = Buffer.from(encryptionKeyB64, 'base64');
  if (encryptionKey.length !== 32) throw new Error('ENCRYPTION_KEY must be 32 bytes, base64-encoded');

  if (!config.ENCRYPTION_KEY || !config.SESSION_SECRET) {
    const next = {
      encryptionKey: config.ENCRYPTION_KEY ? stored.encryptionKey : encryptionKeyB64,
      sessionSecret: config.SESSION_SECRET ? stored.sessionSecret : sessionSecret,
    };
    if (next.encryptionKey !== stored.encryptionKey || next.sessionSecret !== stored.sessionSecret) {
      fs.mkdirSync(config.dataDir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify(next, null, 2), { mode: 0o600 });
    }
  }
  return { encryptionKey, sessionSecret };
}
