import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { loadSecrets, missingSecretsMessage } from './secrets.js';

describe('the encryption key', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-secrets-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('is read from ENCRYPTION_KEY_FILE and then never written into DATA_DIR', () => {
    const dataDir = tmp();
    const keyFile = path.join(tmp(), 'key');
    const key = randomBytes(32);
    fs.writeFileSync(keyFile, `${key.toString('base64')}\n`);
    const secrets = loadSecrets(loadConfig({ DATA_DIR: dataDir, ENCRYPTION_KEY_FILE: keyFile }));
    expect(secrets.encryptionKey.equals(key)).toBe(true);
    const stored = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'));
    expect(stored.encryptionKey).toBeUndefined();
    expect(stored.sessionSecret).toBeTruthy();
  });

  it('is generated into DATA_DIR when nothing is configured, and kept across starts', () => {
    const dataDir = tmp();
    const first = loadSecrets(loadConfig({ DATA_DIR: dataDir }));
    const second = loadSecrets(loadConfig({ DATA_DIR: dataDir }));
    expect(second.encryptionKey.equals(first.encryptionKey)).toBe(true);
  });

  it('refuses both settings at once, an unreadable file and a key of the wrong size', () => {
    const dataDir = tmp();
    const keyFile = path.join(tmp(), 'key');
    fs.writeFileSync(keyFile, randomBytes(16).toString('base64'));
    const key = randomBytes(32).toString('base64');
    expect(() =>
      loadSecrets(loadConfig({ DATA_DIR: dataDir, ENCRYPTION_KEY: key, ENCRYPTION_KEY_FILE: keyFile })),
    ).toThrow(/not both/);
    expect(() =>
      loadSecrets(loadConfig({ DATA_DIR: dataDir, ENCRYPTION_KEY_FILE: '/nonexistent/key' })),
    ).toThrow(/cannot be read/);
    expect(() => loadSecrets(loadConfig({ DATA_DIR: dataDir, ENCRYPTION_KEY_FILE: keyFile }))).toThrow(
      /32 bytes/,
    );
  });

  it('with DATABASE_URL the server and worker refuse to generate them (requireShared), naming what is missing', () => {
    const dataDir = tmp();
    const db = { DATA_DIR: dataDir, DATABASE_URL: 'postgres://app@db.example/trialwear' };
    expect(() => loadSecrets(loadConfig(db), { requireShared: true })).toThrow(
      missingSecretsMessage(['SESSION_SECRET', 'ENCRYPTION_KEY']),
    );
    expect(() =>
      loadSecrets(loadConfig({ ...db, SESSION_SECRET: 'x'.repeat(43) }), { requireShared: true }),
    ).toThrow(
      /and ENCRYPTION_KEY is not set: set SESSION_SECRET and ENCRYPTION_KEY \(or ENCRYPTION_KEY_FILE\)/,
    );
    expect(fs.existsSync(path.join(dataDir, 'secrets.json'))).toBe(false);
    const key = randomBytes(32);
    const secrets = loadSecrets(
      loadConfig({ ...db, SESSION_SECRET: 's'.repeat(43), ENCRYPTION_KEY: key.toString('base64') }),
      { requireShared: true },
    );
    expect(secrets.encryptionKey.equals(key)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'secrets.json'))).toBe(false);
  });

  it('reads ENCRYPTION_KEYS_PREVIOUS (comma-separated) for decryption only, and refuses a key of the wrong size', () => {
    const dataDir = tmp();
    const [k1, k2, current] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const secrets = loadSecrets(
      loadConfig({
        DATA_DIR: dataDir,
        ENCRYPTION_KEY: current.toString('base64'),
        ENCRYPTION_KEYS_PREVIOUS: `${k1.toString('base64')}, ${k2.toString('base64')},${current.toString('base64')}`,
      }),
    );
    expect(secrets.encryptionKey.equals(current)).toBe(true);
    expect(secrets.previousKeys.map((k) => k.toString('hex'))).toEqual([
      k1.toString('hex'),
      k2.toString('hex'),
    ]);
    expect(() =>
      loadSecrets(
        loadConfig({ DATA_DIR: dataDir, ENCRYPTION_KEYS_PREVIOUS: randomBytes(16).toString('base64') }),
      ),
    ).toThrow('ENCRYPTION_KEYS_PREVIOUS: key 1 must be 32 bytes, base64-encoded');
  });
});
