/*
 * The built web app as the server serves it: precompressed variants chosen by
 * accept-encoding, and the cache policy (hashed assets immutable, index.html
 * and client routes revalidated, API answers never stored). A fake build in a
 * temp folder: index.html, a hashed script with its .br and .gz and its
 * source map (never served), a hashed image without variants.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

const INDEX_HTML = `<!doctype html><html><head><title>TrialWear</title>${'<meta name="x" content="padding">'.repeat(20)}<script type="module" src="/assets/app-3f9a1c2b.js"></script></head><body><div id="root"></div></body></html>`;
const SCRIPT = `export const pages = [${Array.from({ length: 400 }, (_, i) => `"page-${i}"`).join(',')}];\n`;
const IMAGE = '<svg xmlns="http://www.w3.org/2000/svg"/>';

function writeFakeBuild(dir: string) {
  fs.mkdirSync(path.join(dir, 'assets'));
  const files: Record<string, string> = {
    'index.html': INDEX_HTML,
    'assets/app-3f9a1c2b.js': SCRIPT,
    'assets/logo-1a2b3c4d.svg': IMAGE,
  };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  fs.writeFileSync(path.join(dir, 'assets/app-3f9a1c2b.js.map'), '{"version":3,"sources":["src/secret.ts"]}');
  fs.writeFileSync(path.join(dir, 'assets/app-3f9a1c2b.js.map.gz'), zlib.gzipSync('{"version":3}'));
  for (const name of ['index.html', 'assets/app-3f9a1c2b.js']) {
    fs.writeFileSync(path.join(dir, `${name}.br`), zlib.brotliCompressSync(files[name]!));
    fs.writeFileSync(path.join(dir, `${name}.gz`), zlib.gzipSync(files[name]!));
  }
}

describe('static web app: precompressed assets and caching', () => {
  let t: TestApp;
  let dist: string;
  const size = (name: string) => String(fs.statSync(path.join(dist, name)).size);
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-web-dist-'));
    writeFakeBuild(dist);
    t = await createTestApp({ webDist: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('never serves a source map, plain or compressed (404, not index.html)', async () => {
    for (const url of ['/assets/app-3f9a1c2b.js.map', '/assets/app-3f9a1c2b.js.map.gz']) {
      const variants: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip, br' }];
      for (const headers of variants) {
        const res = await get(url, headers);
        expect(res.statusCode, url).toBe(404);
        expect(res.body).not.toContain('sources');
      }
    }
  });

  it('sends the brotli file when brotli is accepted (as browsers ask)', async () => {
    const res = await get('/assets/app-3f9a1c2b.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['content-length']).toBe(size('assets/app-3f9a1c2b.js.br'));
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 2);
  });

  it('sends the gzip file when only gzip is accepted (or brotli is refused)', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip']) {
      const res = await get('/assets/app-3f9a1c2b.js', { 'accept-encoding': accept });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(res.headers['content-length']).toBe(size('assets/app-3f9a1c2b.js.gz'));
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
    }
  });

  it('sends the file itself when no compression is accepted', async () => {
    const accepts: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'deflate' },
    ];
    for (const headers of accepts) {
      const res = await get('/assets/app-3f9a1c2b.js', headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(SCRIPT)));
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body).toBe(SCRIPT);
    }
  });

  it('sends a file without compressed variants as it is', async () => {
    const res = await get('/assets/logo-1a2b3c4d.svg', { 'accept-encoding': 'gzip, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body).toBe(IMAGE);
  });

  it('caches hashed assets for a year, immutable, whatever the encoding', async () => {
    for (const accept of ['br', 'gzip', 'identity']) {
      const res = await get('/assets/app-3f9a1c2b.js', { 'accept-encoding': accept });
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const image = await get('/assets/logo-1a2b3c4d.svg');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves index.html compressed, revalidated every time (no-cache)', async () => {
    const res = await get('/index.html', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX_HTML);

    // Revalidation: the same ETag gives a 304 without the body.
    const again = await get('/index.html', {
      'accept-encoding': 'gzip, deflate, br',
      'if-none-match': String(res.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('serves index.html with no-cache for the root and for SPA client routes', async () => {
    for (const url of ['/', '/LoginPage', '/TrialPage?trialId=4', '/ContactUsForm/']) {
      const res = await get(url, { 'accept-encoding': 'gzip' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['content-encoding'], url).toBe('gzip');
      expect(res.headers.vary, url).toMatch(/accept-encoding/i);
      expect(zlib.gunzipSync(res.rawPayload).toString(), url).toBe(INDEX_HTML);
    }
    const plain = await get('/TrialPage');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body).toBe(INDEX_HTML);
  });

  it('answers a missing hashed asset and a compressed variant asked by name with 404, not index.html', async () => {
    for (const url of ['/assets/app-00000000.js', '/assets/app-3f9a1c2b.js.br', '/index.html.gz']) {
      const res = await get(url, { 'accept-encoding': 'gzip, br' });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
  });

  it('keeps API answers out of every cache (no-store), and unknown API paths are 404', async () => {
    const version = await get('/api/appVersion', { 'accept-encoding': 'gzip, br' });
    expect(version.statusCode).toBe(200);
    expect(version.headers['cache-control']).toBe('no-store');
    const unknown = await get('/api/no-such-thing');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['cache-control']).toBe('no-store');
  });
});
