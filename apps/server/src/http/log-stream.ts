/*
 * Where the server's log lines go unless a caller names a stream: stdout,
 * written in batches. Written one line at a time, every request cost a write
 * of its own (a trip through libuv's thread pool, a syscall, a wake-up of
 * whatever reads the pipe): the largest item in a profile of the server's own
 * work per request on the trial page's list under load (bench/load, decision
 * 050).
 * Lines now wait in pino's buffer until it holds BATCH_BYTES or FLUSH_MS has
 * passed, whichever comes first, so a quiet server still shows each line
 * within FLUSH_MS. What is buffered when the process exits (a signal's clean
 * stop, an uncaught error) is written out synchronously by pino's exit hook;
 * only a SIGKILL can lose the last FLUSH_MS of lines.
 */
import pino from 'pino';

export const FLUSH_MS = 50;
/** Below sonic-boom's maxWrite (16 KiB), as it requires. */
export const BATCH_BYTES = 8 * 1024;

export interface LogStream {
  write(line: string): boolean;
  /** Writes what is buffered and stops the flush timer (the app's onClose). */
  stop(): void;
}

/** Stdout (or another open file descriptor: the tests'), written in batches. */
export function batchedStdout({ fd = 1, flushMs = FLUSH_MS } = {}): LogStream {
  const destination = pino.destination({ dest: fd, sync: false, minLength: BATCH_BYTES });
  // A flush only when a line came since the last one: an idle server does not write every FLUSH_MS.
  let pending = false;
  const timer = setInterval(() => {
    if (!pending) return;
    pending = false;
    destination.flush();
  }, flushMs);
  timer.unref();
  return {
    write(line) {
      pending = true;
      return destination.write(line);
    },
    stop() {
      clearInterval(timer);
      if (pending) destination.flush();
      pending = false;
    },
  };
}
