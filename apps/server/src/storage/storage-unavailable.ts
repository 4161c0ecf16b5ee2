/*
 * An export store nobody can write to until an administrator acts (issue
 * 27): full (ENOSPC, EDQUOT), read-only (EROFS) or not permitted (EACCES,
 * EPERM). Retrying such a job only fails again, so the job fails at once
 * with a text that says so (EXPORT_MESSAGES.storageUnavailable), and the
 * cause is logged in one line: code, system call, path.
 */

const UNAVAILABLE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM']);

export interface StorageCause {
  code: string;
  syscall?: string;
  path?: string;
}

/** The errno error behind `err` (itself or along its `cause` chain, as streams and archivers wrap it), if it is one of those. */
export function storageUnavailableCause(err: unknown): StorageCause | null {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, syscall, path } = e as NodeJS.ErrnoException;
    if (typeof code === 'string' && UNAVAILABLE.has(code))
      return { code, ...(syscall ? { syscall } : {}), ...(path ? { path } : {}) };
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** `ENOSPC write /data/exports/team-1/….zip.ab12….partial`: the log line's cause. */
export function describeCause(c: StorageCause): string {
  return [c.code, c.syscall, c.path].filter(Boolean).join(' ');
}
