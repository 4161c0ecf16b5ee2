/*
 * Brings up what the server (and the CLI) run on: the database (embedded in
 * DATA_DIR unless DATABASE_URL is set), migrations, the job queue, mail and
 * reCAPTCHA. stop() tears down in the reverse order.
 */
import path from 'node:path';
import type PgBoss from 'pg-boss';
import type { AppContext } from './app-context.js';
import type { Config } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { startEmbeddedPostgres } from './db/embedded-postgres.js';
import { migrate } from './db/migrate.js';
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
  let connectionString = config.DATABASE_URL;
  let stopEmbedded = async () => {};
  if (!connectionString) {
    const embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.EMBEDDED_PG_PORT,
      log,
    });
    connectionString = embedded.connectionString();
    stopEmbedded = embedded.stop;
  }
  const database = openDatabase(connectionString);
  try {
    const applied = await migrate(database.pool);
    if (applied.length) log(`Applied migrations: ${applied.join(', ')}`);
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

export interface Runtime {
  ctx: AppContext;
  stop: () => Promise<void>;
}

export async function startRuntime(config: Config, log: Log): Promise<Runtime> {
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

  const secrets = loadSecrets(config);
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
