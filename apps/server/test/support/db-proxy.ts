/*
 * The outage tests' tools (issue 27): the TCP proxy in front of the test
 * cluster's PostgreSQL (scripts/db-proxy.mjs, shared with the browser
 * journeys), and terminating every connection to the test's database.
 */
export { type DbProxy, startDbProxy } from '../../../../scripts/db-proxy.mjs';

/**
 * `pg_terminate_backend` on every other connection to the test's database, as an operator (or a
 * failover) would: the server's, the worker's and the test's own pools alike. Answers how many.
 */
export async function terminateConnections(t: {
  connectAs: (who: 'superuser') => Promise<import('pg').Client>;
}): Promise<number> {
  const admin = await t.connectAs('superuser');
  try {
    const res = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()) AS killed`,
    );
    return res.rows[0]!.n;
  } finally {
    await admin.end();
  }
}
