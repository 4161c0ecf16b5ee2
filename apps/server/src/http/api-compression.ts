/*
 * Large /api answers go out compressed when the client accepts it: a trial's
 * participant list is ~330 KB of JSON for 1,436 participants and ~21 KB
 * gzipped (8 KB as brotli), for about a millisecond of work off the event
 * loop (zlib's thread pool). Only answers of at least COMPRESS_MIN_BYTES: the
 * small ones are not worth it. The lists carry no secret beside
 * caller-controlled text (no token in an answer this large), so compressing
 * them opens no BREACH-style oracle. The SPA's files are compressed
 * separately (static-web.ts).
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

export const COMPRESS_MIN_BYTES = 16 * 1024;

/**
 * Brotli's quality for an answer of this many characters: 4 as before, and 2
 * from 1 MiB (a study-health table of 1,000 participants is 2 MB for 14 days,
 * 11.6 MB for 90): 3-4x less CPU there (90 days: 116 vs 431 ms on the loaded
 * bench machine) for 239 KB instead of 240 (14 days: 46 KB instead of 38);
 * quality 1 is ~2x larger (bench/README.md, study-health).
 */
export const brotliQuality = (chars: number) => (chars >= 1024 * 1024 ? 2 : 4);

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The encoding to use for this Accept-Encoding header: br, gzip, or none (q=0 refuses one). */
export function chooseEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const ok = (coding: string) => (accepted.get(coding) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

export function registerApiCompression(app: FastifyInstance) {
  // Callback style: most answers are small and pass through without a promise (bench/load).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' || payload.length < COMPRESS_MIN_BYTES) return done(null, payload);
    if (!request.url.startsWith('/api/') || reply.hasHeader('content-encoding')) return done(null, payload);
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return done(null, payload);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    const compressed =
      encoding === 'br'
        ? brotliAsync(payload, {
            params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality(payload.length) },
          })
        : gzipAsync(payload);
    compressed.then((body) => done(null, body), done);
  });
}
