/*
 * Starting several processes on one database: three servers at once apply
 * the migrations and seed the demo once and are all ready; without the shared
 * secrets a server or worker refuses to start with one clear line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { knownMigrations } from '../../src/db/migrate.js';
import type { Cluster } from './cluster.js';
import { runToEnd } from './cluster.js';

export function startupCases(cl: Cluster) {
  it('three servers started at once apply the migrations once, seed the demo once, and are all ready', async () => {
    const { db, startedTogether } = cl;
    const known = knownMigrations();
    const { rows } = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(rows.map((r) => r.name)).toEqual(known);
    // Exactly one of the three applied them (the others waited on the lock and found nothing to do).
    const applied = startedTogether.filter((s) => s.output().includes('Applied migrations:'));
    expect(applied).toHaveLength(1);
    expect(applied[0]!.output()).toContain(`Applied migrations: ${known.join(', ')}`);
    expect(startedTogether.filter((s) => s.output().includes('Seeded the demo team'))).toHaveLength(1);
    expect((await db.query("SELECT count(*)::int AS n FROM users WHERE username = 'admin'")).rows[0].n).toBe(
      1,
    );
    for (const s of startedTogether) {
      const ready = await fetch(`${s.base}/api/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ready',
        database: 'up',
        migrations: { expected: known.at(-1), applied: known.at(-1), pending: 0, unknown: 0 },
      });
      const health = await fetch(`${s.base}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: 'up', queue: 'up' });
    }
  });

  it('a server or worker with DATABASE_URL and no secrets refuses to start with one clear line', async () => {
    const { appUrl, dataDir } = cl;
    const noSecrets = (dir: string) => ({
      ...process.env,
      DATABASE_URL: appUrl,
      DATA_DIR: dir,
      SESSION_SECRET: '',
      ENCRYPTION_KEY: '',
      ENCRYPTION_KEY_FILE: '',
      PORT: '0',
      WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'warn',
    });
    const line =
      'with DATABASE_URL every server and worker must share the same secrets, and SESSION_SECRET and ENCRYPTION_KEY are not set: ' +
      'set SESSION_SECRET and ENCRYPTION_KEY (or ENCRYPTION_KEY_FILE) to the same values on every process ' +
      '(`npm run cli -- gen-secrets` prints a fresh pair)';
    const serverDir = dataDir();
    const workerDir = dataDir();
    const [server, work] = await Promise.all([
      runToEnd('main', noSecrets(serverDir)),
      runToEnd('worker', noSecrets(workerDir)),
    ]);
    expect(server.code).toBe(1);
    expect(server.output.trim()).toBe(`[trialwear] failed to start: ${line}`);
    expect(work.code).toBe(1);
    expect(work.output.trim()).toBe(`[trialwear-worker] failed to start: ${line}`);
    // Nothing generated into DATA_DIR.
    expect(fs.existsSync(path.join(serverDir, 'secrets.json'))).toBe(false);
    expect(fs.existsSync(path.join(workerDir, 'secrets.json'))).toBe(false);
  }, 60_000);
}
