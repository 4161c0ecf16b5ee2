/*
 * The admin CLI against the running portal's database, as an operator runs
 * it (`npm run cli -- <command>`): the built entry with the journeys' DATA_DIR,
 * so it finds the embedded PostgreSQL the server started. Answers the one
 * JSON line the command prints.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_PASSWORD, dataDir } from './browser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function cli(...args: string[]): Record<string, unknown> {
  const run = spawnSync(process.execPath, ['apps/server/dist/cli/main.js', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir(), DATABASE_URL: '' },
  });
  if (run.status !== 0) throw new Error(`cli ${args[0]} failed: ${run.stdout}${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!);
}

/**
 * A team of the journey's own (every catalog device of the brands as its
 * supported devices) and, when `admin` is named, an Admin of it without a
 * second factor who signs in with the demo password. Answers the team's id.
 */
export function journeyTeam(
  name: string,
  opts: { brands?: string; retentionDays?: number; hiddenFields?: string; admin?: string } = {},
): number {
  const { id } = cli(
    'create-team',
    '--name',
    name,
    '--allowed-brands',
    opts.brands ?? 'Fitbit',
    ...(opts.retentionDays ? ['--retention-days', String(opts.retentionDays)] : []),
    ...(opts.hiddenFields ? ['--hidden-fields', opts.hiddenFields] : []),
  );
  if (opts.admin)
    cli(
      'create-user',
      '--username',
      opts.admin,
      '--email',
      `${opts.admin}@journeys.trialwear.local`,
      '--password',
      DEMO_PASSWORD,
      '--first-name',
      'Journey',
      '--last-name',
      'Admin',
      '--team',
      name,
      '--role',
      'Admin',
      '--no-sfa',
    );
  return id as number;
}
