/*
 * Brings up what the server (and the CLI) run on: the database (embedded in
 * DATA_DIR unless DATABASE_URL is set), migrations, the job queue, mail and
 * reCAPTCHA. stop() tears down in the reverse order.
 */
import { createHmac } from 'node:crypto';
import path from 'node:path';
import type PgBoss from 'pg-boss';
import type { AppContext } from './app-context.js';
import type { Config } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { startEmbeddedPostgres } from './db/embedded-postgres.js';
import { migrate } from './db/migrate.js';
import { APP_ROLE, applyAppGrants, describeRole, ensureRoles, OWNER_ROLE } from './db/roles.js';
import { createMailer } from './mail/mailer.js';
import { createProviderRegistry } from './providers/registry.js';
import { startQueue } from './queue/boss.js';
import { createRecaptchaVerifier } from './security/recaptcha.js';
import { loadSecrets } from './security/secrets.js';

export type Log = (message: string) => void;

/** The job runner's log lines, on the process's log. */
export const jobLog = (log: Log) => ({
  info: (m: string) => log(`[jobs] ${m}`),
  error: (m: string, err: unknown) => console.error(`[trialwear] [jobs] ${m}`, err),
});

export interface RuntimeDatabase {
  database: DatabaseHandle;
  stop: () => Promise<void>;
}

export async function openRuntimeDatabase(config: Config, log: Log): Promise<RuntimeDatabase> {
  let appUrl = config.DATABASE_URL;
  let ownerUrl = config.DATABASE_OWNER_URL ?? config.DATABASE_URL;
  let stopEmbedded = async () => {};
  if (!appUrl) {
    const embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.EMBEDDED_PG_PORT,
      log,
    });
    stopEmbedded = embedded.stop;
    try {
      const passwords = rolePasswords(embedded.superuserPassword);
      await ensureRoles(embedded.connectionString, EMBEDDED_DATABASE, passwords);
      ownerUrl = embedded.roleConnectionString(OWNER_ROLE, passwords.owner, EMBEDDED_DATABASE);
      appUrl = embedded.roleConnectionString(APP_ROLE, passwords.app, EMBEDDED_DATABASE);
    } catch (err) {
      await stopEmbedded();
      throw err;
    }
  }
  const database = openDatabase(appUrl);
  try {
    await migrateAsOwner(ownerUrl!, appUrl, database, log);
  } catch (err) {
    await database.close();
    await stopEmbedded();
    throw err;
  }
  return {
    database,
    stop: async () => {
      await database.close();
      await stopEmbedded();
    },
  };
}

const EMBEDDED_DATABASE = 'trialwear';

/** The embedded roles' passwords, derived from the bootstrap password kept in DATA_DIR (no more files). */
function rolePasswords(seed: string) {
  const derive = (role: string) => createHmac('sha256', seed).update(`role:${role}`).digest('base64url');
  return { owner: derive(OWNER_ROLE), app: derive(APP_ROLE) };
}

/** Migrations and grants as the owner; then say plainly when the application could rewrite the audit log. */
async function migrateAsOwner(ownerUrl: string, appUrl: string, app: DatabaseHandle, log: Log) {
  const owner = ownerUrl === appUrl ? app : openDatabase(ownerUrl, 1);
  try {
    const { role } = await describeRole(app.pool);
    // Grants under the migration lock: several processes starting at once would otherwise race on them.
    const applied = await migrate(owner.pool, {
      ...(owner !== app ? { whileLocked: (client) => applyAppGrants(client, role) } : {}),
    });
    if (applied.length) log(`Applied migrations: ${applied.join(', ')}`);
    const facts = await describeRole(app.pool);
    if (facts.superuser || facts.ownsAuditLog)
      log(
        `WARNING: the application connects as ${facts.role}, which ${facts.superuser ? 'is a superuser' : 'owns the audit log'}: ` +
          'it could rewrite the audit trail. Use a separate owner role (DATABASE_OWNER_URL); see SECURITY.md.',
      );
  } finally {
    if (owner !== app) await owner.close();
  }
}

export interface Runtime {
  ctx: AppContext;
  stop: () => Promise<void>;
}

export async function startRuntime(config: Config, log: Log): Promise<Runtime> {
  // First: a server or worker on a shared database without the shared secrets stops here, before
  // touching the database (see security/secrets.ts).
  const secrets = loadSecrets(config, { requireShared: true });
  const { database, stop: stopDatabase } = await openRuntimeDatabase(config, log);
  let boss: PgBoss;
  try {
    boss = await startQueue(database.connectionString);
  } catch (err) {
    await stopDatabase();
    throw err;
  }
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log,
  });
  if (!config.SMTP_URL) log(`SMTP_URL is not set: mail goes to ${path.join(config.dataDir, 'outbox')}`);
  const recaptcha = createRecaptchaVerifier({
    secret: config.RECAPTCHA_SECRET,
    minScore: config.RECAPTCHA_MIN_SCORE,
    verifyUrl: config.RECAPTCHA_VERIFY_URL,
  });
  if (!recaptcha.enabled) log('WARNING: RECAPTCHA_SECRET is not set: reCAPTCHA verification is OFF');

  const ctx: AppContext = {
    config,
    db: database.db,
    boss,
    mailer,
    recaptcha,
    secrets,
    providers: createProviderRegistry(config, secrets),
    now: () => new Date(),
  };
  return {
    ctx,
    stop: async () => {
      // Workers first (let running jobs finish), then mail, then the database.
      await boss
        .stop({ graceful: true, wait: true, timeout: 15_000 })
        .catch((err) => log(`queue stop failed: ${err}`));
      mailer.close();
      await stopDatabase();
    },
  };
}

/**
 * SIGINT/SIGTERM: stop once, in order (`stop`), then exit 0 with "stopped
 * cleanly" in the log; a shutdown that hangs past 30 s exits 1. Shared by the
 * server and the worker entries.
 */
export function exitOnSignals(name: string, log: Log, stop: () => Promise<void>) {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal} received, shutting down`);
    const force = setTimeout(() => {
      console.error(`[${name}] shutdown took too long, exiting`);
      process.exit(1);
    }, 30_000);
    force.unref();
    try {
      await stop();
      log('stopped cleanly');
      process.exit(0);
    } catch (err) {
      console.error(`[${name}] shutdown failed`, err);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
