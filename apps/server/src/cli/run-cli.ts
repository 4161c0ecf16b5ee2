/*
 * Admin CLI: `npm run cli -- <command> [flags]`. Each command prints one line
 * of JSON on success (with the created record's id) and exits non-zero with a
 * clear message otherwise. It reads the server's configuration and works on
 * the same database, whether or not the server is running. `main.ts` runs it
 * as the process; tests run it in their own process (the argument checks and
 * each command's answer) with the environment and output they choose.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BRANDS, HIDDEN_FIELD_NAMES, roleSchema } from '@trialwear/contract';
import { ZodError } from 'zod';
import type { AppContext } from '../app-context.js';
import { readAnchors } from '../audit/anchors.js';
import { verifyAndRecord } from '../audit/verify-chain.js';
import { type Config, loadConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { createTeam, findTeamIdByName, setAllowedBrands } from '../features/teams/service.js';
import {
  addMembership,
  createUser,
  findUserIdByUsername,
  hasAnyUser,
  setSfaRequired,
  unlockUserByCli,
} from '../features/users/service.js';
import { syncNow } from '../jobs/device-sync/sync-now.js';
import { purgeExpiredReadings } from '../jobs/retention-purge/purge.js';
import { studyHealthNow } from '../jobs/study-health/evaluate-alerts.js';
import { createMailer } from '../mail/mailer.js';
import { createProviderRegistry } from '../providers/registry.js';
import { openRuntimeDatabase } from '../runtime.js';
import { rotateEncryptionKey } from '../security/key-rotation.js';
import { generateSecrets, loadSecrets } from '../security/secrets.js';
import { seedDemoIfEmpty } from '../seed/demo.js';

class UsageError extends Error {}

/** What a command that calls providers needs of the server's context. */
function providerContext(db: Db, config: Config, requireShared = true): AppContext {
  // The servers' keys: with DATABASE_URL configured, never generated (tokens sealed by the servers).
  const secrets = loadSecrets(config, { requireShared });
  // The providers as the server builds them (simulated ones are reached over HTTP at PUBLIC_URL).
  return {
    config,
    db,
    boss: null,
    secrets,
    providers: createProviderRegistry(config, secrets),
    now: () => new Date(),
  } as unknown as AppContext;
}

const USAGE = `Usage: npm run cli -- <command> [flags]
  migrate
  create-team --name NAME [--max-participants N] [--max-trials N] [--retention-days N]
              [--allowed-brands Fitbit,Omron,Dexcom] [--hidden-fields email,notes|none]
  create-user --username U --email E --password P --first-name F --last-name L --team NAME
              --role Sys_Admin|Admin|User|Viewer [--no-sfa]
  add-membership --username U --team NAME --role ROLE
  unlock-user --username U
  set-allowed-brands --team NAME --allowed-brands Fitbit,Omron,Dexcom|none
  require-sfa --username U [--off]
  seed-demo
  verify-audit          walk the audit chain (and the anchors file); exit 1 at the first break
  purge-now             delete the readings past retention now (as the daily job does)
  sync-now [--participant ID]   sync every authorized device (or one participant's) now, inline
  study-health-now [--trial ID] check every device's wear and state (or one trial's) and evaluate the
                        study-health rules now: alerts open and close as the hourly jobs would; then
                        send any digest due (its trial-local time reached, not sent today)
  gen-secrets           print a fresh SESSION_SECRET and ENCRYPTION_KEY (no database needed)
  rotate-encryption-key [--batch-size N]   re-seal provider tokens and TOTP seeds under ENCRYPTION_KEY
                        (old values read with ENCRYPTION_KEYS_PREVIOUS); batched, resumable`;

const FLAGS = {
  name: { type: 'string' },
  'max-participants': { type: 'string' },
  'max-trials': { type: 'string' },
  'retention-days': { type: 'string' },
  'allowed-brands': { type: 'string' },
  'hidden-fields': { type: 'string' },
  username: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  team: { type: 'string' },
  role: { type: 'string' },
  'no-sfa': { type: 'boolean' },
  off: { type: 'boolean' },
  participant: { type: 'string' },
  trial: { type: 'string' },
  'batch-size': { type: 'string' },
  help: { type: 'boolean' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true }>>['values'];

function required(flags: Flags, name: keyof Flags): string {
  const v = flags[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v;
}

function optionalInt(flags: Flags, name: keyof Flags): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d+$/.test(v)) throw new UsageError(`--${name} must be a whole number`);
  return Number(v);
}

function listOf<T extends string>(value: string, allowed: readonly T[], flag: string): T[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    if (!allowed.includes(item as T))
      throw new UsageError(`--${flag}: "${item}" is not one of ${allowed.join(', ')}`);
  }
  return items as T[];
}

function parseRole(value: string) {
  const role = roleSchema.safeParse(value);
  if (!role.success) throw new UsageError(`--role must be one of Sys_Admin, Admin, User, Viewer`);
  return role.data;
}

/** A command's result; `exitCode` 1 = the command ran but found a problem (printed as ok: false). */
type Result = Record<string, unknown> & { exitCode?: number };

/** Where the CLI's lines go (stdout: the one JSON line or the usage; stderr: everything else). */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const commands: Record<string, (db: Db, flags: Flags, config: Config, io: CliIo) => Promise<Result>> = {
  migrate: async () => ({ migrated: true }),
  'create-team': async (db, flags) => {
    const hidden = flags['hidden-fields'];
    const id = await createTeam(db, {
      name: required(flags, 'name'),
      maxParticipants: optionalInt(flags, 'max-participants'),
      maxTrials: optionalInt(flags, 'max-trials'),
      retentionDays: optionalInt(flags, 'retention-days'),
      allowedBrands:
        flags['allowed-brands'] === undefined
          ? undefined
          : listOf(flags['allowed-brands'], BRANDS, 'allowed-brands'),
      hiddenFields:
        hidden === undefined
          ? undefined
          : hidden === 'none'
            ? []
            : listOf(hidden, HIDDEN_FIELD_NAMES, 'hidden-fields'),
    });
    return { id };
  },
  'create-user': async (db, flags) => {
    const teamId = await findTeamIdByName(db, required(flags, 'team'));
    const id = await createUser(db, {
      username: required(flags, 'username'),
      email: required(flags, 'email'),
      password: required(flags, 'password'),
      firstName: required(flags, 'first-name'),
      lastName: required(flags, 'last-name'),
      teamId,
      role: parseRole(required(flags, 'role')),
      sfaRequired: !flags['no-sfa'],
    });
    return { id };
  },
  'add-membership': async (db, flags) => {
    const userId = await findUserIdByUsername(db, required(flags, 'username'));
    const teamId = await findTeamIdByName(db, required(flags, 'team'));
    const role = parseRole(required(flags, 'role'));
    await addMembership(db, userId, teamId, role);
    return { id: `${userId}:${teamId}`, userId, teamId, role };
  },
  'unlock-user': async (db, flags) => {
    const id = await findUserIdByUsername(db, required(flags, 'username'));
    await unlockUserByCli(db, id);
    return { id, unlocked: true };
  },
  'set-allowed-brands': async (db, flags) => {
    const teamId = await findTeamIdByName(db, required(flags, 'team'));
    const value = required(flags, 'allowed-brands');
    const brands = value === 'none' ? [] : listOf(value, BRANDS, 'allowed-brands');
    await setAllowedBrands(db, teamId, brands);
    return { id: teamId, allowedBrands: brands };
  },
  'require-sfa': async (db, flags) => {
    const id = await findUserIdByUsername(db, required(flags, 'username'));
    const sfaRequired = !flags.off;
    await setSfaRequired(db, id, sfaRequired);
    return { id, sfaRequired };
  },
  // No simulator is mounted in this process: the demo's wearers get no token (decision 036), so
  // no key seals anything and none is required.
  'seed-demo': async (db, _flags, config) => ({
    seeded: (await hasAnyUser(db)) ? false : await seedDemoIfEmpty(providerContext(db, config, false)),
  }),
  'verify-audit': async (db, _flags, config) => {
    const v = await verifyAndRecord(db, readAnchors(config.auditAnchorFile), 'cli', new Date());
    return { ...v, exitCode: v.ok ? 0 : 1 };
  },
  // Runs the daily job's work inline: per team/metric counts, the total and the time taken.
  'purge-now': async (db) => ({ ...(await purgeExpiredReadings(db, new Date())) }),
  'sync-now': async (db, flags, config) => {
    const participantId = optionalInt(flags, 'participant');
    const { results: _results, ...summary } = await syncNow(providerContext(db, config), participantId);
    return { ...summary, exitCode: summary.errors.length ? 1 : 0 };
  },
  'study-health-now': async (db, flags, config) => {
    const trialId = optionalInt(flags, 'trial');
    // Due digests and linkError mails go out through the server's mail path (SMTP, or DATA_DIR/outbox).
    const mailer = createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: path.join(config.dataDir, 'outbox'),
      log: () => {},
    });
    try {
      return { ...(await studyHealthNow({ ...providerContext(db, config), mailer }, trialId)), exitCode: 0 };
    } finally {
      mailer.close();
    }
  },
  'rotate-encryption-key': async (db, flags, config, io) => {
    const batchSize = optionalInt(flags, 'batch-size');
    if (batchSize === 0) throw new UsageError('--batch-size must be at least 1');
    // The keys as a server would load them: with DATABASE_URL they must be configured, never generated.
    const secrets = loadSecrets(config, { requireShared: true });
    const result = await rotateEncryptionKey(db, secrets, {
      ...(batchSize ? { batchSize } : {}),
      log: (m) => io.err(`[trialwear] ${m}`),
    });
    const undecryptable = Object.values(result.tables).reduce((n, c) => n + c.undecryptable, 0);
    return { ...result, exitCode: undecryptable ? 1 : 0 };
  },
};

function describe(err: unknown): string {
  if (err instanceof ZodError)
    return err.issues.map((i) => `${i.path.join('.') || 'value'}: ${i.message}`).join('; ');
  if (err instanceof Error) return err.message;
  return String(err);
}

/** Runs one command line; answers the exit code (0 ok, 1 failed, 2 usage). */
export async function runCli(
  argv: string[],
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let parsed: { values: Flags; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, allowPositionals: true, strict: true });
  } catch (err) {
    io.err(`Error: ${describe(err)}\n${USAGE}`);
    return 2;
  }
  const [name, ...rest] = parsed.positionals;
  if (parsed.values.help || !name) {
    io.out(USAGE);
    return name ? 0 : 2;
  }
  if (name === 'gen-secrets' && !rest.length) {
    // No configuration or database: a fresh pair to put into every process's environment.
    io.out(JSON.stringify({ ok: true, command: name, ...generateSecrets() }));
    return 0;
  }
  const command = commands[name];
  if (!command || rest.length) {
    io.err(`Error: unknown command "${[name, ...rest].join(' ')}"\n${USAGE}`);
    return 2;
  }
  const config = loadConfig(env);
  // Database messages go to stderr so stdout stays one line of JSON.
  const runtime = await openRuntimeDatabase(config, (m) => io.err(`[trialwear] ${m}`));
  try {
    const { exitCode = 0, ...result } = await command(runtime.database.db, parsed.values, config, io);
    io.out(JSON.stringify({ ok: exitCode === 0, command: name, ...result }));
    return exitCode;
  } catch (err) {
    io.err(`Error: ${describe(err)}`);
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await runtime.stop();
  }
}
