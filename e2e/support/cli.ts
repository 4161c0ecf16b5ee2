/*
 * The admin CLI against the running portal's database, as an operator runs
 * it (`npm run cli -- <command>`): the built CLI's command line (run-cli.js,
 * exactly what the process runs) with the journeys' DATA_DIR, so it finds the
 * embedded PostgreSQL the server started. Run in this process: a CLI process
 * costs about a second of CPU to load the server's modules, and the journeys
 * made twenty of them for their fixtures (the CLI as a process is tested in
 * apps/server/test/cli). Answers the one JSON line the command prints.
 */
import { runCli } from '../../apps/server/dist/cli/run-cli.js';
import { DEMO_PASSWORD, dataDir } from './browser.js';

export async function cli(...args: string[]): Promise<Record<string, unknown>> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir(), DATABASE_URL: '' },
  );
  if (code !== 0) throw new Error(`cli ${args[0]} failed (${code}): ${out.join('\n')}${err.join('\n')}`);
  return JSON.parse(out.join('\n').trim().split('\n').at(-1)!);
}

/**
 * A team of the journey's own (every catalog device of the brands as its
 * supported devices) and, when `admin` is named, an Admin of it without a
 * second factor who signs in with the demo password. Answers the team's id.
 */
export async function journeyTeam(
  name: string,
  opts: { brands?: string; retentionDays?: number; hiddenFields?: string; admin?: string } = {},
): Promise<number> {
  const { id } = await cli(
    'create-team',
    '--name',
    name,
    '--allowed-brands',
    opts.brands ?? 'Fitbit',
    ...(opts.retentionDays ? ['--retention-days', String(opts.retentionDays)] : []),
    ...(opts.hiddenFields ? ['--hidden-fields', opts.hiddenFields] : []),
  );
  if (opts.admin)
    await cli(
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
