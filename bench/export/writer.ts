/*
 * The export bench's writing process: what the export job does with the
 * file, alone in a process so its peak RSS (VmHWM) is the writer's. Reads its
 * request from BENCH_EXPORT (JSON), writes the archive with
 * writeExportArchive into the directory export storage (temp file, fsync,
 * rename), and prints one JSON line: ms, rows, bytes, files, vmHwmKb,
 * progressCalls, cpuMs and cpuSystemMs (from the start of the job: the whole
 * process, main thread and zlib's threads). `BENCH_GROUP_ROWS` sets another
 * Parquet row-group size than the product's.
 */
import fs from 'node:fs';
import { openDatabase } from '../../apps/server/src/db/database.js';
import {
  type ArchiveRequest,
  writeExportArchive,
} from '../../apps/server/src/features/data-export/archive/write-archive.js';
import { createDirectoryExportStorage } from '../../apps/server/src/storage/export-storage.js';

interface Job {
  databaseUrl: string;
  dir: string;
  key: string;
  request: ArchiveRequest;
}

const job = JSON.parse(process.env.BENCH_EXPORT ?? '') as Job;
const vmHwmKb = () =>
  Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);

const database = openDatabase(job.databaseUrl, 2);
try {
  const storage = createDirectoryExportStorage(job.dir);
  const startKb = vmHwmKb();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const writer = await storage.createWriter(job.key);
  let progressCalls = 0;
  try {
    const result = await writeExportArchive(database.db, job.request, writer.stream, {
      signal: new AbortController().signal,
      onProgress: () => {
        progressCalls += 1;
      },
      // BENCH_GROUP_ROWS: another Parquet row-group size than the product's (its memory and speed).
      ...(process.env.BENCH_GROUP_ROWS ? { parquetGroupRows: Number(process.env.BENCH_GROUP_ROWS) } : {}),
    });
    const { size } = await writer.commit();
    const ms = performance.now() - t0;
    const rows = result.files.filter((f) => f.kind === 'data').reduce((n, f) => n + f.rows, 0);
    console.log(
      JSON.stringify({
        ms,
        rows,
        bytes: size,
        files: result.files,
        vmHwmKb: vmHwmKb(),
        startKb,
        progressCalls,
        cpuMs: ((c) => (c.user + c.system) / 1000)(process.cpuUsage(cpu0)),
        cpuSystemMs: process.cpuUsage(cpu0).system / 1000,
      }),
    );
  } catch (err) {
    await writer.abort();
    throw err;
  }
} finally {
  await database.close();
}
