/*
 * Export storage (issue #12 item 4): one suite, run against the directory
 * implementation and against S3 (s3rver, a real S3-compatible HTTP server
 * started here, reached through createExportStorage with the EXPORT_S3_*
 * configuration): nothing visible before commit, exact bytes and size after,
 * abort (also mid-multipart) leaving nothing, remove, keys checked, a
 * large stream written under backpressure, and a dead writer's unfinished
 * write (a temporary file, an incomplete multipart upload) listed and removed
 * (issue 27; s3rver given ListMultipartUploads and AbortMultipartUpload by
 * test/support/s3rver-multipart.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  createDirectoryExportStorage,
  createExportStorage,
  createS3ExportStorage,
  type ExportStorage,
} from '../../src/storage/export-storage.js';
import { S3_BUCKET, type S3Store, s3Store } from '../support/s3-store.js';
import { until } from '../support/until.js';

interface Subject {
  storage: ExportStorage;
  /** Every name the backing store holds (files, objects), temporary ones included. */
  listAll: () => Promise<string[]>;
  /** A storage on the same store with 5 MiB parts (S3: so a 12 MiB write is a multipart upload). */
  smallParts: ExportStorage;
  /** Bytes the backing store holds on disk (the directory's files; s3rver's files: objects and received parts). */
  diskBytes: () => number;
}

/** The size of every file under root. */
function bytesUnder(root: string): number {
  if (!fs.existsSync(root)) return 0;
  return fs
    .readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .reduce((n, e) => n + fs.statSync(path.join(e.parentPath ?? e.path, e.name)).size, 0);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** `total` bytes of pseudo-random data in 64 KiB chunks, produced on demand. */
function generated(total: number, seed = 1): { stream: Readable; sha256: Promise<string> } {
  const hash = createHash('sha256');
  let sent = 0;
  let x = seed;
  let resolve!: (h: string) => void;
  const sha256 = new Promise<string>((r) => {
    resolve = r;
  });
  const stream = new Readable({
    read() {
      if (sent >= total) {
        resolve(hash.digest('hex'));
        this.push(null);
        return;
      }
      const n = Math.min(65536, total - sent);
      const chunk = Buffer.allocUnsafe(n);
      for (let i = 0; i < n; i += 4) {
        x = (x * 1103515245 + 12345) >>> 0;
        chunk.writeUInt32LE(x, i);
      }
      hash.update(chunk);
      sent += n;
      this.push(chunk);
    },
  });
  return { stream, sha256 };
}

function storageSuite(name: string, make: () => Promise<Subject>) {
  describe(`export storage: ${name}`, () => {
    let s: Subject;
    beforeAll(async () => {
      s = await make();
    });

    it('content is visible under the key only after commit, byte for byte, with its size', async () => {
      const before = await s.listAll();
      const body = Buffer.from(`PK…${randomBytes(1000).toString('hex')}`);
      const w = await s.storage.createWriter('exports/1.zip');
      w.stream.write(body.subarray(0, 10));
      w.stream.write(body.subarray(10));
      expect(await s.storage.open('exports/1.zip')).toBeNull();
      expect(await w.commit()).toEqual({ size: body.length });
      const opened = await s.storage.open('exports/1.zip');
      expect(opened?.size).toBe(body.length);
      expect((await readAll(opened!.stream)).equals(body)).toBe(true);
      expect(await s.listAll()).toEqual([...before, 'exports/1.zip'].sort());
    });

    it('a commit after the writer ended its stream itself', async () => {
      const w = await s.storage.createWriter('exports/2.zip');
      await pipeline(Readable.from([Buffer.from('abc'), Buffer.from('def')]), w.stream);
      expect(await w.commit()).toEqual({ size: 6 });
      expect((await readAll((await s.storage.open('exports/2.zip'))!.stream)).toString()).toBe('abcdef');
    });

    it('abort leaves nothing: not the key, not a temporary file', async () => {
      const before = await s.listAll();
      const w = await s.storage.createWriter('exports/3.zip');
      w.stream.write(Buffer.alloc(1000, 1));
      await w.abort();
      expect(await s.storage.open('exports/3.zip')).toBeNull();
      expect(await s.listAll()).toEqual(before);
    });

    it('abort in the middle of a large (multipart) write leaves nothing', async () => {
      const before = await s.listAll();
      const w = await s.smallParts.createWriter('exports/4.zip');
      const data = generated(64 * 1024 * 1024);
      let written = 0;
      const aborting = new Promise<void>((resolve) => {
        data.stream.on('data', (c: Buffer) => {
          written += c.length;
          if (written >= 12 * 1024 * 1024 && written - c.length < 12 * 1024 * 1024) resolve();
        });
      });
      const piping = pipeline(data.stream, w.stream).catch(() => {});
      await aborting;
      await w.abort();
      await piping;
      expect(written).toBeLessThan(64 * 1024 * 1024);
      expect(await s.smallParts.open('exports/4.zip')).toBeNull();
      expect(await s.listAll()).toEqual(before);
      // Nor an unfinished write (S3: the multipart upload was aborted, its parts are gone).
      expect(await s.storage.listUnfinished()).toEqual([]);
    });

    it('a writer that dies leaves an unfinished write: listed under its key, removed by removeUnfinished', async () => {
      const before = await s.listAll();
      const started = Date.now();
      const w = await s.smallParts.createWriter('exports/dead.zip');
      // More than a part (S3: a multipart upload starts), and the writer never ends: it "dies".
      generated(6 * 1024 * 1024, 3).stream.pipe(w.stream as NodeJS.WritableStream, { end: false });
      let found: Awaited<ReturnType<ExportStorage['listUnfinished']>> = [];
      await until(async () => {
        found = await s.storage.listUnfinished();
        return found.length === 1 && (found[0]!.bytes === null || found[0]!.bytes === 6 * 1024 * 1024);
      }, 'the unfinished write');
      const [u] = found;
      expect(u).toMatchObject({ key: 'exports/dead.zip', ref: expect.any(String) });
      expect(u!.since.getTime()).toBeGreaterThanOrEqual(started - 2_000);
      expect(u!.since.getTime()).toBeLessThanOrEqual(Date.now() + 2_000);
      expect(await s.storage.open('exports/dead.zip')).toBeNull();
      await s.storage.removeUnfinished(u!);
      expect(await s.storage.listUnfinished()).toEqual([]);
      expect(await s.listAll()).toEqual(before);
      // Gone already: not an error.
      await s.storage.removeUnfinished(u!);
    });

    it('streams 64 MiB under backpressure and reads it back identical', async () => {
      const data = generated(64 * 1024 * 1024, 7);
      const w = await s.smallParts.createWriter('exports/big.zip');
      // How far the source runs ahead of what the store has received: parts in flight
      // at most (2 × 5 MiB here) and stream buffers, never the whole file. (Measured on
      // the store's disk: the process's RSS moved with the garbage collector and s3rver.)
      const onDisk = s.diskBytes();
      let sent = 0;
      let ahead = 0;
      data.stream.on('data', (c: Buffer) => {
        sent += c.length;
        ahead = Math.max(ahead, sent - (s.diskBytes() - onDisk));
      });
      await pipeline(data.stream, w.stream);
      expect(await w.commit()).toEqual({ size: 64 * 1024 * 1024 });
      expect(ahead).toBeGreaterThan(0);
      expect(ahead).toBeLessThan(24 * 1024 * 1024);
      const opened = await s.storage.open('exports/big.zip');
      expect(opened?.size).toBe(64 * 1024 * 1024);
      const hash = createHash('sha256');
      for await (const c of opened!.stream as AsyncIterable<Buffer>) hash.update(c);
      expect(hash.digest('hex')).toBe(await data.sha256);
      await s.storage.remove('exports/big.zip');
    });

    it('remove deletes; removing or opening a missing key is not an error', async () => {
      const w = await s.storage.createWriter('exports/5.zip');
      w.stream.write('x');
      await w.commit();
      await s.storage.remove('exports/5.zip');
      expect(await s.storage.open('exports/5.zip')).toBeNull();
      await s.storage.remove('exports/5.zip');
      expect(await s.storage.open('exports/never.zip')).toBeNull();
    });

    it('refuses keys that could leave its place', async () => {
      for (const bad of [
        '../x.zip',
        'exports/../../x.zip',
        '/abs.zip',
        'a//b.zip',
        'a b.zip',
        '',
        'x.zip.partial',
      ])
        await expect(s.storage.createWriter(bad)).rejects.toThrow('invalid export storage key');
      await expect(s.storage.open('../etc/passwd')).rejects.toThrow('invalid export storage key');
    });
  });
}

// --- directory ---------------------------------------------------------------

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-export-storage-'));
const walk = (root: string, at = ''): string[] =>
  fs
    .readdirSync(path.join(root, at), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(root, path.join(at, e.name)) : [path.join(at, e.name)]))
    .sort();

storageSuite('directory', async () => ({
  storage: createExportStorage(loadConfig({ DATA_DIR: dir })),
  smallParts: createDirectoryExportStorage(path.join(dir, 'exports')),
  listAll: async () => (fs.existsSync(path.join(dir, 'exports')) ? walk(path.join(dir, 'exports')) : []),
  diskBytes: () => bytesUnder(dir),
}));

describe('export storage: directory specifics', () => {
  it('lives in DATA_DIR/exports; a crashed attempt’s temporary file is never visible and goes with the next writer', async () => {
    const storage = createExportStorage(loadConfig({ DATA_DIR: dir }));
    const crashed = await storage.createWriter('exports/9.zip');
    crashed.stream.write('half a zip');
    await new Promise((r) => setTimeout(r, 50));
    // The process "dies" here: neither commit nor abort.
    const names = walk(path.join(dir, 'exports')).filter((n) => n.startsWith('exports/9.zip'));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^exports\/9\.zip\.[0-9a-f]{12}\.partial$/);
    expect(await storage.open('exports/9.zip')).toBeNull();
    const next = await storage.createWriter('exports/9.zip');
    next.stream.write('whole');
    await next.commit();
    expect(walk(path.join(dir, 'exports')).filter((n) => n.startsWith('exports/9.zip'))).toEqual([
      'exports/9.zip',
    ]);
    expect(fs.readFileSync(path.join(dir, 'exports', 'exports', '9.zip'), 'utf8')).toBe('whole');
  });
});

// --- S3 (s3rver) -------------------------------------------------------------

/**
 * One s3rver for the file, started by whichever of the S3 suites runs first (they run in any order)
 * and closed after them all.
 */
let s3Started: Promise<S3Store> | undefined;
const s3 = () => {
  s3Started ??= s3Store('tw-s3rver-');
  return s3Started;
};

afterAll(async () => {
  await (await s3Started)?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

storageSuite('S3 (s3rver)', async () => {
  const store = await s3();
  return {
    storage: createExportStorage(loadConfig({ DATA_DIR: dir, ...store.env() })),
    smallParts: createS3ExportStorage({
      bucket: S3_BUCKET,
      partSize: 5 * 1024 * 1024,
      client: store.clientConfig,
    }),
    listAll: async () => {
      const r = await store.client.send(new ListObjectsV2Command({ Bucket: S3_BUCKET }));
      return (r.Contents ?? []).map((o) => o.Key!).sort();
    },
    diskBytes: () => bytesUnder(store.dir),
  };
});

describe('export storage: S3 configuration', () => {
  it('EXPORT_S3_BUCKET selects S3; the keys go under EXPORT_S3_PREFIX; the two credentials come together', async () => {
    const store = await s3();
    const storage = createExportStorage(
      loadConfig({
        DATA_DIR: dir,
        EXPORT_S3_BUCKET: S3_BUCKET,
        EXPORT_S3_ENDPOINT: store.endpoint,
        EXPORT_S3_ACCESS_KEY_ID: 'S3RVER',
        EXPORT_S3_SECRET_ACCESS_KEY: 'S3RVER',
        EXPORT_S3_PREFIX: 'tenant-a/',
      }),
    );
    const w = await storage.createWriter('exports/p.zip');
    w.stream.write('prefixed');
    await w.commit();
    expect(fs.existsSync(path.join(dir, 'exports', 'exports', 'p.zip'))).toBe(false);
    const r = await store.client.send(new ListObjectsV2Command({ Bucket: S3_BUCKET, Prefix: 'tenant-a/' }));
    expect((r.Contents ?? []).map((o) => o.Key)).toEqual(['tenant-a/exports/p.zip']);
    await storage.remove('exports/p.zip');
    expect(() => loadConfig({ EXPORT_S3_BUCKET: S3_BUCKET, EXPORT_S3_ACCESS_KEY_ID: 'only-one' })).toThrow(
      'EXPORT_S3_ACCESS_KEY_ID and EXPORT_S3_SECRET_ACCESS_KEY are set together or not at all',
    );
  });
});
