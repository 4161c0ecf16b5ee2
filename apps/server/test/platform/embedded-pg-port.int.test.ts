/*
 * A second checkout (or any program) holding the embedded database's port:
 * start must stop with one clear line naming EMBEDDED_PG_PORT, not die with
 * PostgreSQL's raw log, and must leave no postgres process behind.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/free-port.mjs';
import { portInUseMessage, startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';

describe('embedded PostgreSQL port already in use', () => {
  let blocker: net.Server;
  let port: number;
  let dataDir: string;
  beforeAll(async () => {
    port = await freePort();
    blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-pgport-'));
    fs.chmodSync(dataDir, 0o755);
  });
  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses with one line that names EMBEDDED_PG_PORT', async () => {
    const logged: string[] = [];
    const error = await startEmbeddedPostgres({ dataDir, port, log: (m) => logged.push(m) }).then(
      () => null,
      (err: Error) => err,
    );
    expect(error?.message).toBe(portInUseMessage(port));
    expect(error?.message).toContain('EMBEDDED_PG_PORT');
    expect(error?.message).not.toContain('\n');
    expect(fs.existsSync(path.join(dataDir, 'postgres.log'))).toBe(false); // PostgreSQL was never started
  });
});
