/*
 * A PostgreSQL cluster of a test's own, which the test may stop and start
 * again (a database restart): the shared test cluster (global-setup.ts) must
 * never be stopped, other test files use it at the same time. Its own data
 * directory and a free port, kept across the restart, so every connection
 * string the processes hold stays valid; the template is prepared as in the
 * shared cluster, so createTestApp({ cluster }) clones from it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../../scripts/free-port.mjs';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { prepareTemplate, type TestCluster, THROWAWAY_CLUSTER } from './global-setup.js';

export interface RestartableCluster {
  cluster: TestCluster;
  /** Stop the postmaster ("fast": every connection is terminated, 57P01). */
  stop: () => Promise<void>;
  /** Start it again on the same data directory and port. */
  start: () => Promise<void>;
  /** Stop it and remove its data directory. */
  destroy: () => Promise<void>;
}

export async function startRestartableCluster(): Promise<RestartableCluster> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-restart-pg-'));
  // The cluster user (when run as root) must reach the directory: mkdtemp makes it 0700.
  fs.chmodSync(dataDir, 0o755);
  const port = Number(await freePort());
  const open = () => startEmbeddedPostgres({ dataDir, port, log: () => {}, settings: THROWAWAY_CLUSTER });
  let pg: EmbeddedPostgresHandle | null = await open();
  const cluster = await prepareTemplate(pg.connectionString('postgres'));
  return {
    cluster,
    stop: async () => {
      await pg?.stop();
      pg = null;
    },
    start: async () => {
      pg ??= await open();
    },
    destroy: async () => {
      await pg?.stop();
      pg = null;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
