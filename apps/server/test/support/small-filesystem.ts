/*
 * A real file system to fill up or make read-only, for the tests of an
 * export store that is full or not writable: a tmpfs of a given size mounted
 * on a directory (root with CAP_SYS_ADMIN, as the CI container runs; where
 * mounting is not permitted the tests that need it say so and are skipped).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const run = (args: string[]) => execFileSync(args[0]!, args.slice(1), { stdio: 'pipe' });

/** Whether this process may mount a tmpfs (tried once, on a scratch directory). */
export function canMountTmpfs(): boolean {
  if (process.platform !== 'linux') return false;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-mount-probe-'));
  try {
    run(['mount', '-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
    run(['umount', dir]);
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface SmallFilesystem {
  dir: string;
  /** Writes a file until the file system has no space left. */
  fill(): void;
  readOnly(): void;
  unmount(): void;
}

export function mountTmpfs(dir: string, bytes: number): SmallFilesystem {
  fs.mkdirSync(dir, { recursive: true });
  run(['mount', '-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir]);
  return {
    dir,
    fill() {
      const fd = fs.openSync(path.join(dir, 'filler'), 'w');
      try {
        for (;;) fs.writeSync(fd, Buffer.alloc(64 * 1024));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        fs.closeSync(fd);
      }
    },
    readOnly() {
      run(['mount', '-o', 'remount,ro', dir]);
    },
    unmount() {
      run(['umount', '-l', dir]);
    },
  };
}
