/*
 * Serves the built SPA (apps/web/dist) on the same port as the API. Any GET
 * that is not /api, /sim or a file falls back to index.html so client-side
 * routes (/TrialPage, /ContactUsForm/ …) load on refresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendNotFound } from './errors.js';

export function defaultWebDist() {
  return fileURLToPath(new URL('../../../web/dist/', import.meta.url));
}

/** Returns false (and serves nothing) when there is no built web app. */
export async function registerStaticWeb(app: FastifyInstance, webDist: string): Promise<boolean> {
  const indexFile = path.join(webDist, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`No built web app at ${webDist}; only the API is served (run npm run build:web)`);
    return false;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    // Hashed asset names never change: cache them for a year. index.html is never cached.
    setHeaders: (res, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`))
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (request.method !== 'GET' || url.startsWith('/api/') || url === '/api' || url.startsWith('/sim/')) {
      return sendNotFound(request, reply);
    }
    const file = path.join(webDist, path.normalize(url));
    if (file.startsWith(webDist) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      return reply.sendFile(path.relative(webDist, file));
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
  return true;
}
