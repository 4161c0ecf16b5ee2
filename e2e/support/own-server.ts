/*
 * A second portal for a journey that needs another configuration than the
 * shared server's (e.g. the default Fitbit back end, the Google Health API):
 * the same built server started as `npm start` does, on its own port, with
 * its own embedded PostgreSQL and DATA_DIR, its mail to the journeys' test
 * SMTP server. The journey stops it (SIGTERM; no emailed secret may be in
 * its log, as for the shared server) and its data directory is removed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { freePort } from '../../scripts/free-port.mjs';
import { waitForMail } from './inbox.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface OwnServer {
  baseUrl: string;
  dataDir: string;
  /** The newest mail that matches, unfolded (quoted-printable soft breaks removed). */
  mail: (match: (text: string) => boolean) => Promise<string>;
  /** SIGTERM; the data directory is removed unless `keepData` (a later server reuses it). */
  stop: (opts?: { keepData?: boolean }) => Promise<void>;
}

export async function startOwnServer(
  env: Record<string, string | undefined>,
  opts: { dataDir?: string } = {},
): Promise<OwnServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tw-e2e-own-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    SEED_DEMO: 'true',
    LOG_LEVEL: 'info',
    DATABASE_URL: '',
    SMTP_URL: inject('smtpUrl'),
    SIMULATOR_CONTROL: 'true',
    ...env,
  }))
    if (v !== undefined) childEnv[k] = v;
  let output = '';
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c) => {
    output += c;
  });
  child.stderr?.on('data', (c) => {
    output += c;
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output.slice(-3000)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy:\n${output.slice(-3000)}`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  /** The single-use secrets of the mails this journey read (link values named t, code, state, token, key). */
  const secrets = new Set<string>();
  return {
    baseUrl,
    dataDir,
    async mail(match) {
      const text = unfold(await waitForMail((raw) => match(unfold(raw)), 15_000));
      for (const m of text.matchAll(/[?&](?:token|t|code|state|key|verify)=([\w.~-]{12,})/g))
        secrets.add(m[1]!);
      return text;
    },
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const exited = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), 30_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve(true);
          });
        });
        if (!exited) child.kill('SIGKILL');
      }
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
      const leaked = [...secrets].filter((secret) => output.includes(secret));
      if (leaked.length) throw new Error(`emailed secrets in the server log: ${leaked.length}`);
    },
  };
}
