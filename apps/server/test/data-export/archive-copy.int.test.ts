/*
 * The export's lean COPY parser (archive/lean-copy-to.ts) against
 * pg-copy-streams' own, on a real database: it passes the CopyData messages
 * on whole, nothing else, and their payloads are the stock parser's bytes,
 * for a CSV COPY of 120,000 rows of varied length and a binary one
 * (messages cut at every position by the socket's chunks), an empty COPY, a
 * COPY interleaved with NOTICE messages; an error raised mid-COPY fails the
 * stream and leaves the connection usable. And the native CRC-32 yazl is
 * given agrees with buffer-crc32.
 */
import { createRequire } from 'node:module';
import { to as copyTo } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolOf } from '../../src/db/database.js';
import { leanCopyTo } from '../../src/features/data-export/archive/lean-copy-to.js';
import { useNativeCrc32 } from '../../src/features/data-export/archive/native-crc32.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The payloads of a stream of CopyData messages, checking each is one. */
function unframe(bytes: Buffer): Buffer {
  const payloads: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    expect(bytes[at]).toBe(0x64);
    const next = at + 1 + bytes.readUInt32BE(at + 1);
    payloads.push(bytes.subarray(at + 5, next));
    at = next;
  }
  return Buffer.concat(payloads);
}

describe('lean COPY TO parser', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function copyWith(make: (sql: string) => ReturnType<typeof copyTo>, sql: string) {
    const client = await poolOf(t.ctx.db).connect();
    try {
      const stream = client.query(make(sql));
      const chunks: Buffer[] = [];
      for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
      // The connection is back in pg's hands: a query after the COPY works.
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      const bytes = Buffer.concat(chunks);
      return {
        bytes: make === copyTo ? bytes : unframe(bytes),
        rowCount: stream.rowCount,
        chunks: chunks.length,
      };
    } finally {
      client.release();
    }
  }

  it('yields exactly the bytes pg-copy-streams yields', async () => {
    const sql = `COPY (SELECT i, repeat('x', i % 300), md5(i::text), CASE WHEN i % 7 = 0 THEN NULL ELSE i * 0.25 END,
        'quote " and, comma'
      FROM generate_series(1, 120000) i) TO STDOUT (FORMAT csv)`;
    const lean = await copyWith(leanCopyTo, sql);
    const stock = await copyWith(copyTo, sql);
    expect(lean.bytes.length).toBeGreaterThan(10_000_000);
    expect(lean.bytes.equals(stock.bytes)).toBe(true);
    expect(lean.chunks).toBeGreaterThan(10);
    expect(lean.bytes.toString('utf8').split('\n')).toHaveLength(120_001);
  });

  it('an empty COPY, and one interleaved with notices', async () => {
    expect(
      (await copyWith(leanCopyTo, 'COPY (SELECT 1 WHERE false) TO STDOUT (FORMAT csv)')).bytes.length,
    ).toBe(0);
    const client = await poolOf(t.ctx.db).connect();
    try {
      await client.query(`CREATE FUNCTION pg_temp.noisy(i int) RETURNS int LANGUAGE plpgsql AS $$
        BEGIN IF i % 1000 = 0 THEN RAISE NOTICE 'row %', i; END IF; RETURN i; END $$`);
      const stream = client.query(
        leanCopyTo('COPY (SELECT pg_temp.noisy(i) FROM generate_series(1, 5000) i) TO STDOUT'),
      );
      const chunks: Buffer[] = [];
      for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
      // The notices are left out: only CopyData messages, the rows in order.
      const lines = unframe(Buffer.concat(chunks)).toString().split('\n').slice(0, -1);
      expect(lines).toEqual(Array.from({ length: 5000 }, (_, i) => String(i + 1)));
      expect((await client.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
    } finally {
      client.release();
    }
  });

  it("a binary COPY: the payloads are the stock parser's bytes", async () => {
    const sql = `COPY (SELECT i, repeat('y', i % 500), CASE WHEN i % 5 = 0 THEN NULL ELSE i * 0.5 END
      FROM generate_series(1, 80000) i) TO STDOUT (FORMAT binary)`;
    const lean = await copyWith(leanCopyTo, sql);
    const stock = await copyWith(copyTo, sql);
    expect(lean.chunks).toBeGreaterThan(10);
    expect(lean.bytes.equals(stock.bytes)).toBe(true);
    expect(lean.rowCount).toBe(80_000);
  });

  it('an error mid-COPY fails the stream; the connection stays usable', async () => {
    const client = await poolOf(t.ctx.db).connect();
    try {
      const stream = client.query(
        leanCopyTo('COPY (SELECT 1 / (50000 - i) FROM generate_series(1, 60000) i) TO STDOUT'),
      );
      let received = 0;
      await expect(
        (async () => {
          for await (const c of stream as AsyncIterable<Buffer>) received += c.length;
        })(),
      ).rejects.toThrow('division by zero');
      expect(received).toBeGreaterThan(0);
      expect((await client.query('SELECT 3 AS three')).rows).toEqual([{ three: 3 }]);
    } finally {
      client.release();
    }
  });

  it('the native CRC-32 agrees with buffer-crc32 and is what yazl now calls', () => {
    const crc = createRequire(createRequire(import.meta.url).resolve('yazl'))('buffer-crc32') as {
      unsigned: (b: Buffer, p?: number) => number;
      nativeCrc32?: boolean;
    };
    expect(useNativeCrc32()).toBe(true);
    expect(crc.nativeCrc32).toBe(true);
    // 'The quick brown fox…' has a well-known CRC-32.
    expect(crc.unsigned(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });
});
