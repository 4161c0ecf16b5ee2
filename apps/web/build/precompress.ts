/*
 * Writes a brotli (.br) and a gzip (.gz) file beside every compressible file
 * of the build, so the server sends compressed bytes without compressing on
 * each request (apps/server/src/http/static-web.ts picks the variant per
 * accept-encoding). Brotli at its highest quality: it runs once per build.
 * A variant is kept only when it is smaller than the file. Source maps are
 * left alone: only developer tools fetch them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|ico|webmanifest)$/;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Compresses one file; returns the sizes of the file and of the variants written (0 when not kept). */
export async function precompressFile(file: string) {
  const data = await fs.readFile(file);
  const [br, gz] = await Promise.all([
    brotli(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  const keep = async (variant: Buffer, ext: string) => {
    if (variant.length >= data.length) return 0;
    await fs.writeFile(file + ext, variant);
    return variant.length;
  };
  return { size: data.length, br: await keep(br, '.br'), gz: await keep(gz, '.gz') };
}

export async function precompressDir(dir: string) {
  const files = (await filesUnder(dir)).filter((f) => COMPRESSIBLE.test(f));
  const total = { files: files.length, size: 0, br: 0, gz: 0 };
  for (const r of await Promise.all(files.map(precompressFile))) {
    // What is served: the variant when one was kept, else the file itself.
    total.size += r.size;
    total.br += r.br || r.size;
    total.gz += r.gz || r.size;
  }
  return total;
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'trialwear-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const t = await precompressDir(outDir);
        const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;
        this.info(`precompressed ${t.files} files: ${kb(t.size)} → brotli ${kb(t.br)}, gzip ${kb(t.gz)}`);
      },
    },
  };
}
