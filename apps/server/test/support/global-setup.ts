/*
 * Integration tests run on a real PostgreSQL: TEST_DATABASE_URL (a
 * superuser: it creates the owner and application roles) when set, else an
 * embedded one in .data/test-pg. We migrate one template database as the
 * owner role, with the application role's grants and its pg-boss schema,
 * once; each test file clones it in milliseconds and connects as the
 * application role, exactly as production does.
 */
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../../../scripts/free-port.mjs';
import { openDatabase } from '../../src/db/database.js';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { migrate } from '../../src/db/migrate.js';
import { APP_ROLE, applyAppGrants, ensureRoles, OWNER_ROLE } from '../../src/db/roles.js';
import { startQueue } from '../../src/queue/boss.js';

/** Where the test databases are cloned from: the shared cluster's, or a test's own cluster. */
export interface TestCluster {
  adminDatabaseUrl: string;
  templateDatabase: string;
  rolePasswords: { owner: string; app: string };
}

declare module 'vitest' {
  export interface ProvidedContext extends TestCluster {}
}

/** Fixed in tests: the roles live in a throwaway cluster (or the developer's own). */
const ROLE_PASSWORDS = { owner: 'tw-test-owner-pw', app: 'tw-test-app-pw' };

export function asRole(url: string, role: string, password: string) {
  const u = new URL(url);
  u.username = role;
  u.password = password;
  return u.toString();
}

const TEMPLATE = 'tw_test_template';

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * The migrated template of the test databases in the cluster at `adminUrl`
 * (a superuser): the roles, the schema as the owner, the application role's
 * grants and its pg-boss schema; closed to connections so it can be cloned.
 * Also for a test that runs its own cluster (one it stops and starts again).
 */
export async function prepareTemplate(adminUrl: string): Promise<TestCluster> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await ensureRoles((database) => withDatabase(adminUrl, database), TEMPLATE, ROLE_PASSWORDS);

    const templateUrl = withDatabase(adminUrl, TEMPLATE);
    const owner = openDatabase(asRole(templateUrl, OWNER_ROLE, ROLE_PASSWORDS.owner), 2);
    await migrate(owner.pool);
    await applyAppGrants(owner.pool, APP_ROLE);
    await owner.close();
    const boss = await startQueue(asRole(templateUrl, APP_ROLE, ROLE_PASSWORDS.app), { background: false });
    await boss.stop({ graceful: false, wait: true });
    // A template must have no sessions while it is cloned: close the door and clear the room.
    await admin.query(`ALTER DATABASE ${TEMPLATE} WITH ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
      TEMPLATE,
    ]);
    return { adminDatabaseUrl: adminUrl, templateDatabase: TEMPLATE, rolePasswords: ROLE_PASSWORDS };
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  if (!adminUrl) {
    const embedded = await startEmbeddedPostgres({
      dataDir: path.resolve('.data/test-pg'),
      // A free port each run, so two checkouts (or a CI run beside a dev run) never collide.
      port: Number(process.env.TEST_PG_PORT ?? (await freePort())),
      log: () => {},
      settings: THROWAWAY_CLUSTER,
    });
    adminUrl = embedded.connectionString('postgres');
    stop = embedded.stop;
  }
  // One run per cluster: a second run's setup would drop the first run's databases under it. The
  // lock is held by this connection until the teardown (or the process's end).
  const runLock = new pg.Client({ connectionString: adminUrl });
  await runLock.connect();
  const { rows } = await runLock.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [RUN_LOCK]);
  if (!rows[0]?.ok) {
    await runLock.end();
    throw new Error(
      `Another integration test run is using this PostgreSQL (${process.env.TEST_DATABASE_URL ? 'TEST_DATABASE_URL' : '.data/test-pg'}): wait for it to end. Two runs on one cluster drop each other's databases.`,
    );
  }
  await dropTestDatabases(adminUrl); // leftovers of an interrupted run
  await prepareTemplate(adminUrl);

  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', TEMPLATE);
  project.provide('rolePasswords', ROLE_PASSWORDS);

  return async () => {
    await dropTestDatabases(adminUrl);
    await runLock.end();
    await stop();
  };
}

const RUN_LOCK = 734_002;

/**
 * The test clusters are thrown away: nothing in them must survive a power cut, so commits are not
 * flushed to disk (a killed server process or a stopped postmaster loses nothing either way).
 */
export const THROWAWAY_CLUSTER = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

/**
 * Drops every test database. An interrupted DROP leaves a database invalid (datconnlimit -2), which
 * may be dropped but not altered; DROP … WITH (FORCE) needs no ALTER first (none is a template).
 */
async function dropTestDatabases(adminUrl: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const left = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'tw_test_%'",
    );
    for (const { datname } of left.rows)
      await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
