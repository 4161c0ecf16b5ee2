// A free TCP port on the loopback interface for the servers and databases the
// tests start, so runs side by side never collide. Chosen at random below the
// kernel's ephemeral range (32768–60999 on Linux): a port the OS hands out for
// `listen(0)` is one it may also give, a moment later, to any outgoing
// connection as its local port (three test suites side by side make thousands),
// and a PostgreSQL started on it then failed with "Address already in use".
import net from 'node:net';

const LOW = 10_000;
const HIGH = 32_767;
const handedOut = new Set();

function listenable(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

export async function freePort() {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (handedOut.has(port)) continue;
    if (await listenable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${LOW} and ${HIGH} after 200 tries`);
}
