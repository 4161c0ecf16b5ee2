/*
 * The export bench's download part (bench/export/run.ts, BENCH_PARTS=download):
 * a file of `mb` MiB written through the export storage, served by
 * download-server.ts as the download route serves it, and read `rounds` times
 * from disk (`cat | wc -c`) and over HTTP (`curl`), with the page cache
 * dropped before each read and then warm; medians and their ratio (budget:
 * HTTP ≥ 0.8× the disk, cold).
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createDirectoryExportStorage } from '../../apps/server/src/storage/export-storage.js';
import { root } from '../support/processes.js';
import { median, run } from './timed-run.js';

export async function downloadBench(work: string, opts: { mb: number; rounds: number }) {
  const { mb: DOWNLOAD_MB, rounds: DOWNLOAD_ROUNDS } = opts;
  const dir = path.join(work, 'download');
  const storage = createDirectoryExportStorage(dir);
  const size = DOWNLOAD_MB * 1024 * 1024;
  const writer = await storage.createWriter('exports/download.zip');
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < DOWNLOAD_MB; i++) {
    for (let j = 0; j < block.length; j += 4) block.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, j);
    if (!writer.stream.write(block)) await new Promise((r) => writer.stream.once('drain', r));
  }
  await writer.commit();
  const file = path.join(dir, 'exports', 'download.zip');

  const server = spawn(
    process.execPath,
    [...process.execArgv, path.join(root, 'bench/export/download-server.ts')],
    {
      cwd: root,
      env: { ...process.env, BENCH_DOWNLOAD_DIR: dir },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      server.on('exit', (code) => reject(new Error(`download server exited with ${code}`)));
    });
    // Both read by a small program, as a person downloading or copying the file would: cat from
    // disk, curl over HTTP (Node's own HTTP client reads at a third of curl's speed here).
    const timed = async (cmd: string, args: string[], check: (stdout: string) => boolean) => {
      const r = await run(cmd, args);
      if (!check(r.stdout)) throw new Error(`${cmd}: ${r.stdout}`);
      return r.ms;
    };
    const fromDisk = () =>
      timed('bash', ['-c', `cat "${file}" | wc -c`], (out) => Number(out.trim()) === size);
    const overHttp = () =>
      timed(
        'curl',
        [
          '-s',
          '-o',
          '/dev/null',
          '-w',
          '%{http_code} %{size_download}',
          `http://127.0.0.1:${port}/download/download.zip`,
        ],
        (out) => out.trim() === `200 ${size}`,
      );
    // Cold: the file's pages dropped from the page cache before each read
    // (GNU dd's nocache: posix_fadvise DONTNEED on this file only), so both
    // read it from disk, as a download of a file written days ago does.
    // Warm: both read it from the page cache (memory speed against TCP).
    const evict = () => {
      const r = spawnSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
      if (r.status !== 0) throw new Error(`dd: ${r.stderr}`);
    };
    const mbps = (ms: number) => size / 1048576 / (ms / 1000);
    for (const cache of ['cold', 'warm'] as const) {
      const disk: number[] = [];
      const web: number[] = [];
      if (cache === 'warm') {
        await fromDisk();
        await overHttp();
      }
      for (let i = 0; i < DOWNLOAD_ROUNDS; i++) {
        if (cache === 'cold') evict();
        disk.push(await fromDisk());
        if (cache === 'cold') evict();
        web.push(await overHttp());
      }
      const ratio = mbps(median(web)) / mbps(median(disk));
      console.log(
        `download of ${DOWNLOAD_MB} MiB, page cache ${cache}, median of ${DOWNLOAD_ROUNDS}: disk ${mbps(median(disk)).toFixed(0)} MiB/s, HTTP ${mbps(median(web)).toFixed(0)} MiB/s: ${ratio.toFixed(2)}×${cache === 'cold' ? ` (target ≥ 0.8×: ${ratio >= 0.8 ? 'met' : 'MISSED'})` : ''}`,
      );
    }
  } finally {
    server.kill('SIGTERM');
    if (server.exitCode === null) await new Promise((r) => server.once('exit', r));
  }
}
