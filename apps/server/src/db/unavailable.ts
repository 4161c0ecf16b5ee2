/*
 * Is this error the database being out of reach (issue 27) rather than a
 * refused statement or a bug? A failover, a restart, an operator's
 * pg_terminate_backend or a network blip: the request (or job) failed, the
 * pool reconnects by itself, and the answer is 503 with Retry-After, not 500.
 */

/** Socket-level failures of the connection to PostgreSQL (Node's error codes). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/** SQLSTATEs of a server going away or not taking connections (PostgreSQL appendix A). */
const SQLSTATES = new Set([
  '57P01', // admin_shutdown: terminated by an administrator (pg_terminate_backend) or a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '53300', // too_many_connections
]);

/** node-postgres and pg-pool report these without a code. */
const MESSAGES = [
  /^Connection terminated/, // "… unexpectedly", "… due to connection timeout"
  /^timeout exceeded when trying to connect$/, // pg-pool's connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === 'string') {
    if (SOCKET_CODES.has(e.code) || SQLSTATES.has(e.code)) return true;
    if (e.code.startsWith('08')) return true; // class 08: connection exception
  }
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  if (Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isDatabaseUnavailable)) return true;
  return typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string));
}
