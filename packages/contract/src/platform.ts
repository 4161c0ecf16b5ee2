/** Platform calls every page relies on: CSRF token, version, public configuration; and the health check. */
import { z } from 'zod';

/** Double-submit CSRF: the readable cookie and the header every write repeats it in. */
export const CSRF_COOKIE = 'tw_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * Cookie names. Served over https the cookies carry the browser-enforced
 * prefixes: `__Host-` (Secure, Path=/, no Domain: no sibling subdomain can
 * set or shadow it) for the session and CSRF cookies, `__Secure-` for the
 * remembered-device cookie (it is scoped to /api/auth). Over plain http
 * (local use) a browser refuses those prefixes, so the names are plain.
 */
export const COOKIE_BASE_NAMES = {
  session: 'tw_session',
  // A participant's session (issue #14): its own cookie and table, so it can never pass a staff check.
  participantSession: 'tw_participant_session',
  csrf: CSRF_COOKIE,
  device: 'tw_device',
} as const;
export function cookieName(kind: keyof typeof COOKIE_BASE_NAMES, secure: boolean): string {
  if (!secure) return COOKIE_BASE_NAMES[kind];
  return `${kind === 'device' ? '__Secure-' : '__Host-'}${COOKIE_BASE_NAMES[kind]}`;
}

/** GET /api/csrf-token */
export const csrfTokenSchema = z.object({ csrfToken: z.string() });
export type CsrfToken = z.infer<typeof csrfTokenSchema>;

/** GET /api/appVersion */
export const appVersionSchema = z.object({ data: z.string() });
export type AppVersion = z.infer<typeof appVersionSchema>;

/** GET /api/publicConfig: a null site key means reCAPTCHA is off. */
export const publicConfigSchema = z.object({ version: z.string(), recaptchaSiteKey: z.string().nullable() });
export type PublicConfig = z.infer<typeof publicConfigSchema>;

const serviceStateSchema = z.enum(['up', 'down']);

/**
 * GET /api/health: liveness for a load balancer or supervisor: 200 while the
 * process answers ('ok' when the database and the queue are up, else
 * 'degraded', still 200: restarting the process would not bring a database
 * back). Whether to send traffic here is /api/ready.
 */
export const healthResultSchema = z.object({
  status: z.literal('ok'),
  database: serviceStateSchema,
  queue: serviceStateSchema,
});
export type HealthResult = z.infer<typeof healthResultSchema>;

/** GET /api/health when the database or the queue is down (still 200). */
export const degradedHealthResultSchema = healthResultSchema.extend({ status: z.literal('degraded') });
export type DegradedHealthResult = z.infer<typeof degradedHealthResultSchema>;

/**
 * GET /api/ready: readiness for a load balancer: 200 when the database
 * answers and every migration this build knows is applied (`expected`, the
 * last migration's name), else 503 (database down, or migrations behind or
 * ahead: another version's server on the same database). A server that is
 * shutting down answers 503 too (Fastify, while it drains its requests).
 */
export const readyResultSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: serviceStateSchema,
  migrations: z.object({
    expected: z.string(),
    /** The newest applied migration this build knows, or null (none, or the database is down). */
    applied: z.string().nullable(),
    /** Migrations of this build not applied yet. */
    pending: z.number().int(),
    /** Applied migrations this build does not know (a newer version migrated the database). */
    unknown: z.number().int(),
  }),
});
export type ReadyResult = z.infer<typeof readyResultSchema>;
