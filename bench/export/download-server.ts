/*
 * The download bench's server, in its own process: a minimal Fastify app
 * whose one route answers a file of the export storage as the download route
 * does (storage.open(): its stream as the body, Content-Length from its size,
 * Content-Disposition naming the file). BENCH_DOWNLOAD_DIR is the storage
 * directory; it prints `listening <port>` once up.
 */
import Fastify from 'fastify';
import { createDirectoryExportStorage } from '../../apps/server/src/storage/export-storage.js';

const storage = createDirectoryExportStorage(process.env.BENCH_DOWNLOAD_DIR ?? '');
const app = Fastify({ logger: false });
app.get<{ Params: { key: string } }>('/download/:key', async (req, reply) => {
  const file = await storage.open(`exports/${req.params.key}`);
  if (!file) return reply.code(404).send({ message: 'not found' });
  return reply
    .header('content-type', 'application/zip')
    .header('content-length', String(file.size))
    .header('content-disposition', `attachment; filename="${req.params.key}"`)
    .send(file.stream);
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
