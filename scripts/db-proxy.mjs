// A TCP proxy in front of a test PostgreSQL, for the outage tests (issue 27):
// `refuse()` closes its port and cuts every connection through it, so the
// portal meets what it meets when its database is down (ECONNREFUSED on
// connect, connections ended under it) while the cluster itself, which other
// tests share, keeps running; `accept()` opens the port again. Shared by the
// server's integration tests (apps/server/test/support/db-proxy.ts) and the
// browser journeys (e2e/journeys/database-outage.e2e.test.ts), as
// free-port.mjs is.
import net from 'node:net';

export async function startDbProxy(target) {
  const sockets = new Set();
  const track = (s) => {
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
  const listen = (port) =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: '127.0.0.1' }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address();
  const refuse = async () => {
    const closed = new Promise((resolve) => server.close(() => resolve()));
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
