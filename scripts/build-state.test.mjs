// build-state's decision: a build is redone when its output is missing or a source is newer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builds, isStale, staleBuilds } from './build-state.mjs';

let base;
const at = (seconds) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
/** Writes a file under the temp root with the given modification time. */
const write = (rel, seconds) => {
  const file = path.join(base, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, rel);
  fs.utimesSync(file, at(seconds), at(seconds));
};

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-build-state-'));
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

describe('isStale', () => {
  it('is stale when the output is missing (a fresh checkout)', () => {
    write('src/a.ts', 10);
    expect(isStale('dist/main.js', ['src'], base)).toBe(true);
  });

  it('is fresh when the output is newer than every source, in nested folders too', () => {
    write('src/a.ts', 10);
    write('src/deep/b.ts', 20);
    write('index.html', 5);
    write('dist/main.js', 30);
    expect(isStale('dist/main.js', ['src', 'index.html'], base)).toBe(false);
  });

  it('is stale when a source file (nested, or named directly) is newer than the output', () => {
    write('src/a.ts', 10);
    write('src/deep/b.ts', 40);
    write('dist/main.js', 30);
    expect(isStale('dist/main.js', ['src'], base)).toBe(true);
    write('src/deep/b.ts', 20);
    write('index.html', 31);
    expect(isStale('dist/main.js', ['src', 'index.html'], base)).toBe(true);
  });

  it('ignores node_modules, dist and .tsbuildinfo under the sources, and sources that do not exist', () => {
    write('src/a.ts', 10);
    write('src/node_modules/x/index.js', 50);
    write('src/dist/out.js', 50);
    write('src/tsconfig.tsbuildinfo', 50);
    write('dist/main.js', 30);
    expect(isStale('dist/main.js', ['src', 'no-such-folder'], base)).toBe(false);
  });
});

describe('staleBuilds', () => {
  const writeAll = (seconds) => {
    for (const b of Object.values(builds))
      for (const s of b.sources) write(s.includes('.') ? s : `${s}/file.ts`, seconds);
  };

  it('names both builds on a fresh checkout, server first', () => {
    writeAll(10);
    expect(staleBuilds(base)).toEqual(['server', 'web']);
  });

  it('names none when both are built after their sources', () => {
    writeAll(10);
    write(builds.server.output, 20);
    write(builds.web.output, 20);
    expect(staleBuilds(base)).toEqual([]);
  });

  it('names only the build whose sources changed; a shared source (the contract) rebuilds both', () => {
    writeAll(10);
    write(builds.server.output, 20);
    write(builds.web.output, 20);
    write('apps/server/src/file.ts', 30);
    expect(staleBuilds(base)).toEqual(['server']);
    write(builds.server.output, 40);
    write('apps/web/src/file.ts', 50);
    expect(staleBuilds(base)).toEqual(['web']);
    write(builds.web.output, 60);
    write('packages/contract/src/file.ts', 70);
    expect(staleBuilds(base)).toEqual(['server', 'web']);
  });
});
