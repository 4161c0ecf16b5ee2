/*
 * Scale-out (issue #15): several servers and a worker on one PostgreSQL
 * behave as one. Real processes throughout (the cluster in cluster.ts: three
 * servers and a worker on one fresh database, sharing only DATABASE_URL and
 * the generated secrets; server C with another ENCRYPTION_KEY).
 *
 * The processes are started once (three at once, on the empty database) and
 * shared by the tests, which run in any order: each makes the sessions, trials
 * and links it needs, and the shutdown test stops a server of its own. Each
 * concern's tests are in their own module (*.cases.ts).
 */

import { afterAll, beforeAll, describe } from 'vitest';
import { type Cluster, startCluster, stopCluster } from './cluster.js';
import { jobsAndShutdownCases } from './jobs-and-shutdown.cases.js';
import { sessionsAndTokensCases } from './sessions-and-tokens.cases.js';
import { sharedLimitsCases } from './shared-limits.cases.js';
import { startupCases } from './startup.cases.js';

describe('several servers and a worker on one PostgreSQL behave as one', () => {
  // Filled by startCluster before the first test (the cases read it inside their tests).
  const cl = {} as Cluster;
  beforeAll(() => startCluster(cl), 400_000);
  afterAll(() => stopCluster(cl), 60_000);

  startupCases(cl);
  sessionsAndTokensCases(cl);
  sharedLimitsCases(cl);
  jobsAndShutdownCases(cl);
});
