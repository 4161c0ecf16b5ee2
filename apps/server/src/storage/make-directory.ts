/*
 * `mkdir -p` that reports why it failed. Node's recursive mkdir answers
 * ENOENT when a missing directory cannot be created on a read-only file
 * system (EROFS), a full one (ENOSPC) or without permission (EACCES): after
 * the failed mkdir it stats the path and reports the stat's error instead
 * (nodejs/node#47098, #42808, #31481). A read-only export store then logged
 * `ENOENT: mkdir` (issue 27). One level at a time, each mkdir's own error is
 * the one thrown.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';

export async function makeDirectory(dir: string): Promise<void> {
  try {
    await fsp.mkdir(dir);
    return;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    // Only a missing parent is worth going up for; anything else is the real cause.
    if (code !== 'ENOENT' || path.dirname(dir) === dir) throw err;
  }
  await makeDirectory(path.dirname(dir));
  try {
    await fsp.mkdir(dir);
  } catch (err) {
    // Another writer made it meanwhile.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}
