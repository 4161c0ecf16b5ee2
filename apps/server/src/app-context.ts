import type PgBoss from 'pg-boss';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Mailer } from './mail/mailer.js';
import type { ProviderRegistry } from './providers/registry.js';
import type { RecaptchaVerifier } from './security/recaptcha.js';
import type { Secrets } from './security/secrets.js';

/** What every feature may use. Built once by the runtime (or by a test) and passed to buildApp. */
export interface AppContext {
  config: Config;
  db: Db;
  boss: PgBoss | null;
  mailer: Mailer;
  recaptcha: RecaptchaVerifier;
  secrets: Secrets;
  /** One client per provider, built once from configuration (real service or simulator). */
  providers: ProviderRegistry;
  /** The current time; tests inject a clock. */
  now: () => Date;
}
