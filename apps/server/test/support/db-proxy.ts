/*
 * A TCP proxy in front of the test cluster's PostgreSQL, for the outage tests
 * (issue 27): `refuse()` closes its port and cuts every connection through it,
 * so the portal meets what it meets when its database is down (ECONNREFUSED on
 * connect, connections ended under it) while the cluster itself, which the
 * other test files share, keeps running; `accept()` opens the port again.
 */
import net from 'node:net';

export interface DbProxy {
  port: number;
  refuse(): Promise<void>;
  accept(): Promise<void>;
  close(): Promise<void>;
}

export async function startDbProxy(target: { host: string; port: number }): Promise<DbProxy> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    track(client);
    track(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: '127.0.0.1' }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const refuse = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await closed;
  };
  return {
    port,
    refuse,
    accept: () => listen(port),
    close: async () => {
      if (server.listening) await refuse();
    },
  };
}

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
