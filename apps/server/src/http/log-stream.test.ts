import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BATCH_BYTES, batchedStdout, type LogStream } from './log-stream.js';

/** Polls until `check` holds (the writes are asynchronous: libuv's thread pool). */
async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('batched log lines', () => {
  let dir: string;
  let file: string;
  let fd: number;
  let stream: LogStream | undefined;
  const written = () => fs.readFileSync(file, 'utf8');
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-log-'));
    file = path.join(dir, 'out.log');
    fd = fs.openSync(file, 'w');
  });
  afterEach(() => {
    stream?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('holds lines back, then writes them together when the flush interval ends', async () => {
    stream = batchedStdout({ fd, flushMs: 20 });
    stream.write('one\n');
    stream.write('two\n');
    expect(written()).toBe('');
    await until(() => written() === 'one\ntwo\n', 'the flushed lines');
  });

  it('writes a full batch without waiting for the interval', async () => {
    stream = batchedStdout({ fd, flushMs: 600_000 });
    const line = `${'x'.repeat(99)}\n`;
    const lines = Math.ceil(BATCH_BYTES / line.length) + 1;
    for (let i = 0; i < lines; i++) stream.write(line);
    await until(() => written().length >= BATCH_BYTES, 'the full batch');
  });

  it('writes what is buffered when stopped', async () => {
    stream = batchedStdout({ fd, flushMs: 600_000 });
    stream.write('last\n');
    stream.stop();
    await until(() => written() === 'last\n', 'the last line');
  });
});
