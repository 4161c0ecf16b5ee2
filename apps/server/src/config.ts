/*
 * All configuration comes from the environment, parsed once here. Defaults are
 * safe for a local start: loopback only, embedded PostgreSQL in DATA_DIR, mail
 * to a file outbox, reCAPTCHA off (with a warning at start).
 */
import path from 'node:path';
import { z } from 'zod';

const boolFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /**
   * Addresses whose X-Forwarded-For is believed (Fastify trustProxy: comma-separated IPs, CIDRs or
   * 'loopback'); default loopback in production (a proxy on the same host), everything otherwise.
   */
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().optional()),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Where the daily audit-chain anchors are appended (default DATA_DIR/audit-anchors.jsonl); best on other storage. */
  AUDIT_ANCHOR_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
  /** The schema owner, for migrations (with DATABASE_URL); unset: DATABASE_URL migrates too (audit log not tamper-proof). */
  DATABASE_OWNER_URL: z.preprocess(emptyToUndefined, z.string().optional()),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('TrialWear <no-reply@trialwear.local>'),
  SUPPORT_EMAIL: z.email().default('support@trialwear.local'),
  RECAPTCHA_SECRET: optionalString,
  RECAPTCHA_SITE_KEY: optionalString,
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  RECAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
  ENCRYPTION_KEY: optionalString,
  /** A file holding the base64 encryption key (e.g. a mounted secret), instead of ENCRYPTION_KEY. */
  ENCRYPTION_KEY_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
  /**
   * Earlier encryption keys (comma-separated, base64), still accepted for
   * decryption while `npm run cli -- rotate-encryption-key` re-seals values under ENCRYPTION_KEY.
   */
  ENCRYPTION_KEYS_PREVIOUS: optionalString,
  SESSION_SECRET: optionalString,
  SEED_DEMO: z.preprocess(emptyToUndefined, boolFromEnv.default(true)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: optionalString,
  WORKERS: z.preprocess(emptyToUndefined, boolFromEnv.default(true)),
  /** Days a new link's first sync reads back (issue #11). */
  SYNC_BACKFILL_DAYS: z.coerce.number().int().min(1).max(90).default(30),
  /**
   * Provider calls the background sync may make per device and clock hour:
   * below Fitbit's 150 per user and hour, leaving room for staff reading the
   * data pages on the same budget.
   */
  SYNC_CALLS_PER_HOUR: z.coerce.number().int().min(1).max(150).default(120),
  /**
   * Provider calls the background sync may make per provider and clock hour
   * across all devices (the provider's per-app limit): Dexcom allows 60,000
   * per app and hour, so the sync keeps to 54,000 and leaves the rest to
   * staff on the data pages; Omron publishes no figure (0 = no app budget).
   */
  SYNC_DEXCOM_APP_CALLS_PER_HOUR: z.coerce.number().int().min(0).default(54_000),
  SYNC_OMRON_APP_CALLS_PER_HOUR: z.coerce.number().int().min(0).default(0),
  /**
   * Provider calls per device and clock hour in all (Fitbit: 150 per user and
   * hour): the data pages and device lists stop here, the sync at
   * SYNC_CALLS_PER_HOUR; one counter in PostgreSQL for every server and worker.
   */
  PROVIDER_CALLS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(150),
  /**
   * Provider calls per device and clock hour the interactive reads (data
   * pages, device lists) may make (issue #21): the rest of
   * PROVIDER_CALLS_PER_HOUR stays for the sync and exports, so browsing never
   * starves them (docs/decisions/004-provider-call-budget.md).
   */
  INTERACTIVE_CALLS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(60),
  /** Mount the simulators' control API (/_control/...); default: on only when NODE_ENV is development or test. */
  SIMULATOR_CONTROL: z.preprocess(emptyToUndefined, boolFromEnv.optional()),
  // Fitbit: unset client id = the simulator mounted at /sim/fitbit on this server.
  FITBIT_CLIENT_ID: optionalString,
  FITBIT_CLIENT_SECRET: optionalString,
  FITBIT_AUTHORIZE_URL: z.url().default('https://www.fitbit.com/oauth2/authorize'),
  FITBIT_API_URL: z.url().default('https://api.fitbit.com'),
  /**
   * Which API new Fitbit links use (issue #13): the Google Health API (v4, the
   * legacy API's successor) or the legacy Fitbit Web API. A link keeps the API
   * it was authorized with until the participant consents again.
   */
  FITBIT_API: z.preprocess(emptyToUndefined, z.enum(['google_health', 'legacy']).default('google_health')),
  // Google Health API: unset client id = the simulator mounted at /sim/google-health on this server.
  GOOGLE_HEALTH_CLIENT_ID: optionalString,
  GOOGLE_HEALTH_CLIENT_SECRET: optionalString,
  GOOGLE_HEALTH_AUTHORIZE_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_HEALTH_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_HEALTH_REVOKE_URL: z.url().default('https://oauth2.googleapis.com/revoke'),
  GOOGLE_HEALTH_API_URL: z.url().default('https://health.googleapis.com'),
  /**
   * Google Health notifications (POST /webhooks/google-health): the secret
   * registered as the subscriber's endpointAuthorization (sent verbatim in
   * Authorization), and optionally Google's ECDSA P-256 public key (PEM) to
   * check the signature header. Neither set: the endpoint is off (404) and
   * the 15-minute polling sync alone brings data in.
   */
  GOOGLE_HEALTH_WEBHOOK_SECRET: optionalString,
  GOOGLE_HEALTH_WEBHOOK_PUBLIC_KEY: optionalString,
  OMRON_CLIENT_ID: optionalString,
  OMRON_CLIENT_SECRET: optionalString,
  OMRON_AUTHORIZE_URL: z.url().default('https://prd-oauth-website.ohiomron.com/connect/authorize'),
  OMRON_API_URL: z.url().default('https://prd-oauth.ohiomron.com/prd'),
  DEXCOM_CLIENT_ID: optionalString,
  DEXCOM_CLIENT_SECRET: optionalString,
  DEXCOM_API_URL: z.url().default('https://api.dexcom.com'),
  /** Export files (issue #12): a directory (default DATA_DIR/exports), or S3-compatible storage when EXPORT_S3_BUCKET is set. */
  EXPORT_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
  EXPORT_S3_BUCKET: optionalString,
  /** An S3-compatible endpoint (MinIO, Ceph, R2 …); unset: AWS S3 of EXPORT_S3_REGION. */
  EXPORT_S3_ENDPOINT: z.preprocess(emptyToUndefined, z.url().optional()),
  EXPORT_S3_REGION: optionalString,
  /** Unset: the AWS SDK's default credential chain (environment, instance role …). */
  EXPORT_S3_ACCESS_KEY_ID: optionalString,
  EXPORT_S3_SECRET_ACCESS_KEY: optionalString,
  /** Prepended to every export's object key, e.g. `trialwear/`. */
  EXPORT_S3_PREFIX: optionalString,
  /** Path-style URLs (bucket in the path); default: on when EXPORT_S3_ENDPOINT is set. */
  EXPORT_S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, boolFromEnv.optional()),
});

export type Config = z.infer<typeof configSchema> & {
  /** Absolute DATA_DIR. */
  dataDir: string;
  /** Absolute URL the portal is reached at, without a trailing slash. */
  publicUrl: string;
  /** Absolute path of the audit-anchor file. */
  auditAnchorFile: string;
  /** Served over https: Secure cookies with the __Host-/__Secure- prefixes, HSTS. */
  secureCookies: boolean;
  /** Whether the simulators' control API is mounted (SIMULATOR_CONTROL, else development/test only). */
  simulatorControl: boolean;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const c = parsed.data;
  if (Boolean(c.EXPORT_S3_ACCESS_KEY_ID) !== Boolean(c.EXPORT_S3_SECRET_ACCESS_KEY))
    throw new Error(
      'Invalid configuration:\n  EXPORT_S3_ACCESS_KEY_ID and EXPORT_S3_SECRET_ACCESS_KEY are set together or not at all',
    );
  const publicHost = c.HOST === '0.0.0.0' || c.HOST === '::' ? 'localhost' : c.HOST;
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    simulatorControl: c.SIMULATOR_CONTROL ?? (c.NODE_ENV === 'development' || c.NODE_ENV === 'test'),
    auditAnchorFile: path.resolve(c.AUDIT_ANCHOR_FILE ?? path.join(c.DATA_DIR, 'audit-anchors.jsonl')),
    publicUrl: (c.PUBLIC_URL ?? `http://${publicHost}:${c.PORT}`).replace(/\/+$/, ''),
    secureCookies: (c.PUBLIC_URL ?? '').startsWith('https://'),
  };
}
