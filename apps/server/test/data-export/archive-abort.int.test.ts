/*
 * writeExportArchive on a real database (issue #12 item 3), stopping: an
 * abort stops within a second, mid-COPY, and ends the COPY on the server; an
 * already aborted signal writes nothing; written through the export storage,
 * a committed archive opens as the same bytes and an aborted one leaves
 * nothing. The readings: support/archive-world.ts; what the archive holds:
 * archive.int.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ArchiveRequest,
  writeExportArchive,
} from '../../src/features/data-export/archive/write-archive.js';
import { createExportStorage } from '../../src/storage/export-storage.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { type ArchiveWorld, archiveWorld, collect, NOW, signal } from './support/archive-world.js';
import { unzip } from './support/zip.js';

describe('writeExportArchive: abort and storage', () => {
  let t: TestApp;
  let w: ArchiveWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await archiveWorld(t);
  });
  afterAll(() => t.close());
  const request = (mode: ArchiveRequest['mode']) => w.request(mode);

  it('abort: stops within a second, mid-COPY, and the COPY ends on the server', async () => {
    // Enough rows that the COPY is still running when the abort comes (the sink is slow), of a
    // participant of this test's own. Written as the superuser in replica mode: the foreign-key
    // triggers would take most of the test's time.
    const bulk = await w.participant(w.teamId, w.trialId, 'bulk@secret.example', null);
    const superuser = await t.connectAs('superuser');
    try {
      await superuser.query("SET session_replication_role = 'replica'");
      await superuser.query(
        `INSERT INTO device_readings (participant_id, team_id, metric_key, measured_at, local_date, local_time, utc_offset_minutes, value)
         SELECT $1, $2, 'heart_rate_intraday', ts, (ts AT TIME ZONE 'UTC')::date, (ts AT TIME ZONE 'UTC')::time, 0, 60 + i % 40
           FROM generate_series(1, 150000) i, LATERAL (SELECT timestamptz '2026-03-28T00:00:00Z' + i * interval '1 second') s(ts)
         ON CONFLICT DO NOTHING`,
        [bulk, w.teamId],
      );
    } finally {
      await superuser.end();
    }
    const controller = new AbortController();
    let writes = 0;
    let abortedAt = 0;
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(_chunk, _enc, cb) {
        writes += 1;
        if (writes === 3) {
          abortedAt = Date.now();
          controller.abort(new Error('cancelled by the test'));
        }
        setTimeout(cb, 20);
      },
    });
    const running = writeExportArchive(t.ctx.db, { ...request('single-tab'), participantIds: [bulk] }, slow, {
      signal: controller.signal,
    });
    await expect(running).rejects.toThrow('cancelled by the test');
    expect(abortedAt).toBeGreaterThan(0);
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    expect(slow.destroyed).toBe(true);
    // The server's COPY is gone within the second too (its connection was closed).
    const activeCopies = async () =>
      (
        await t.ctx.db
          .selectFrom(
            (
              await import('kysely')
            ).sql<{ n: number }>`(SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND query LIKE 'COPY (%' AND state = 'active')`.as('a'),
          )
          .select('n')
          .executeTakeFirstOrThrow()
      ).n;
    const deadline = abortedAt + 1000;
    let copies = await activeCopies();
    while (copies > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      copies = await activeCopies();
    }
    expect(copies).toBe(0);
    // The pool is usable afterwards (the aborted connection was discarded, not returned mid-COPY).
    const again = await collect((out) =>
      writeExportArchive(t.ctx.db, { ...request('single-tab'), participantIds: [w.ids.a] }, out, {
        signal: signal(),
      }),
    );
    expect((await unzip(again)).map((e) => e.name)).toEqual([
      'data.csv',
      'data_dictionary.csv',
      'manifest.json',
    ]);
  });

  it('through the export storage: committed, it opens as the same archive; aborted, nothing is left', async () => {
    const small = (mode: ArchiveRequest['mode']) => ({
      ...request(mode),
      participantIds: [w.ids.a, w.ids.c],
    });
    const storage = createExportStorage(t.ctx.config);
    const writer = await storage.createWriter('exports/archive-1.zip');
    const result = await writeExportArchive(t.ctx.db, small('separate-tabs'), writer.stream, {
      signal: signal(),
      now: () => NOW,
    });
    expect(await writer.commit()).toEqual({ size: result.bytes });
    const opened = await storage.open('exports/archive-1.zip');
    expect(opened?.size).toBe(result.bytes);
    const chunks: Buffer[] = [];
    for await (const c of opened!.stream as AsyncIterable<Buffer>) chunks.push(c);
    const direct = await collect((out) =>
      writeExportArchive(t.ctx.db, small('separate-tabs'), out, { signal: signal(), now: () => NOW }),
    );
    expect(Buffer.concat(chunks).equals(direct)).toBe(true);

    const controller = new AbortController();
    const aborted = await storage.createWriter('exports/archive-2.zip');
    const running = writeExportArchive(t.ctx.db, small('single-tab'), aborted.stream, {
      signal: controller.signal,
    });
    controller.abort(new Error('cancelled'));
    await expect(running).rejects.toThrow('cancelled');
    await aborted.abort();
    expect(await storage.open('exports/archive-2.zip')).toBeNull();
    expect(fs.readdirSync(path.join(t.dataDir, 'exports', 'exports'))).toEqual(['archive-1.zip']);
  });

  it('an already aborted signal writes nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    const out = new PassThrough();
    let written = 0;
    out.on('data', (c: Buffer) => {
      written += c.length;
    });
    await expect(
      writeExportArchive(t.ctx.db, request('single-tab'), out, { signal: controller.signal }),
    ).rejects.toThrow('too late');
    expect(written).toBe(0);
  });
});
