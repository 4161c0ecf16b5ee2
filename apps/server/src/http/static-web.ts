/*
 * Serves the built SPA (apps/web/dist) on the same port as the API. Any GET
 * that is not /api, /sim or a file falls back to index.html so client-side
 * routes (/TrialPage, /ContactUsForm/ …) load on refresh.
 *
 * Compression: the web build writes a brotli (.br) and a gzip (.gz) file
 * beside each asset (apps/web/build/precompress.ts); @fastify/static's
 * preCompressed sends the variant the request accepts (brotli, then gzip,
 * else the file itself) with the asset's content-type and the variant's
 * content-length. Every answer says `vary: accept-encoding` so a cache keeps
 * one copy per encoding.
 *
 * Source maps: the build writes them without a reference in the scripts
 * (vite `sourcemap: 'hidden'`) and they are never served (404): the portal's
 * code stays readable in a stack trace on the server, not to every visitor.
 *
 * Caching: files under assets/ carry a content hash in their name, so they
 * never change: a year, immutable. Everything else (index.html, and so every
 * client route) is `no-cache`: the browser revalidates it (ETag) each time,
 * so a new release is picked up at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendNotFound } from './errors.js';

export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE = 'no-cache';

const COMPRESSED_VARIANT = /\.(br|gz)$/;
/** Source maps stay on the server (for reading a stack trace there): they are never served. */
const SOURCE_MAP = /\.map(\.(br|gz))?$/;

export function defaultWebDist() {
  return fileURLToPath(new URL('../../../web/dist/', import.meta.url));
}

/** The cache policy of a file of the web build (or of one of its compressed variants). */
export function cacheControlFor(webDist: string, filePath: string): string {
  const relative = path.relative(webDist, filePath).split(path.sep);
  return relative.length > 1 && relative[0] === 'assets' ? HASHED_ASSET_CACHE : REVALIDATE_CACHE;
}

/** Returns false (and serves nothing) when there is no built web app. */
export async function registerStaticWeb(app: FastifyInstance, webDist: string): Promise<boolean> {
  const root = path.resolve(webDist);
  const indexFile = path.join(root, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`No built web app at ${root}; only the API is served (run npm run build:web)`);
    return false;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    // The .br and .gz files are representations of their asset, not URLs of their own;
    // source maps are not served at all.
    globIgnore: ['**/*.br', '**/*.gz', '**/*.map'],
    // Left on, send's own `cache-control: public, max-age=0` would replace the policy set below.
    cacheControl: false,
    setHeaders: (res, filePath) => {
      res.setHeader('cache-control', cacheControlFor(root, filePath));
      res.setHeader('vary', 'accept-encoding');
    },
  });
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (request.method !== 'GET' || url.startsWith('/api/') || url === '/api' || url.startsWith('/sim/')) {
      return sendNotFound(request, reply);
    }
    // A hashed asset that is not there (a chunk of an older release) is a 404, never index.html.
    if (url.startsWith('/assets/') && !fs.existsSync(path.join(root, path.normalize(url))))
      return sendNotFound(request, reply);
    if (SOURCE_MAP.test(url)) return sendNotFound(request, reply);
    // A file written after start (a rebuild while running) is served too; a compressed variant is not.
    const file = path.join(root, path.normalize(url));
    if (file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      if (COMPRESSED_VARIANT.test(file)) return sendNotFound(request, reply);
      return reply.sendFile(path.relative(root, file));
    }
    return reply.sendFile('index.html');
  });
  return true;
}
