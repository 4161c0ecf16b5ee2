/*
 * What the HTTP benches share: the server's runtime on a fresh embedded
 * database, a team with one Admin (`bench`) and one trial, and a signed-in
 * staff cookie over real HTTP (the CSRF cookie and the session cookie, as a
 * browser holds them).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../apps/server/src/config.js';
import type { Db } from '../../apps/server/src/db/database.js';
import { createTeam } from '../../apps/server/src/features/teams/service.js';
import { createUser } from '../../apps/server/src/features/users/service.js';
import { startRuntime } from '../../apps/server/src/runtime.js';
import { freePort } from '../../scripts/free-port.mjs';

/**
 * The server's runtime (no demo, silent) on a fresh embedded PostgreSQL in a
 * temporary data directory; `remove()` deletes that directory once the
 * runtime has stopped.
 */
export async function benchRuntime(prefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dataDir, 0o755); // the embedded cluster's unprivileged user must reach it when run as root
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    EMBEDDED_PG_PORT: String(await freePort()),
    SEED_DEMO: 'false',
    DATABASE_URL: '',
  });
  const runtime = await startRuntime(config, () => {});
  return { runtime, config, dataDir, remove: () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

const USERNAME = 'bench';
const PASSWORD = 'Bench-pw1!';

export async function benchTeam(db: Db, name: string) {
  const teamId = await createTeam(db, { name, hiddenFields: [] });
  await createUser(db, {
    username: USERNAME,
    email: 'bench@x.example',
    password: PASSWORD,
    firstName: 'B',
    lastName: 'B',
    teamId,
    role: 'Admin',
    sfaRequired: false,
  });
  const { id: trialId } = await db
    .insertInto('trials')
    .values({ team_id: teamId, trial_number: '1', trial_name: 'Bench', trial_code: 'BEN' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { teamId, trialId };
}

/** The `bench` Admin signed in at `base`: the Cookie header to send. */
export async function signedInCookie(base: string) {
  const csrf = await fetch(`${base}/api/csrf-token`);
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie: csrfCookie },
    body: JSON.stringify({ username: USERNAME, password: PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`bench sign-in answered ${login.status}`);
  return [csrfCookie, ...login.headers.getSetCookie().map((c) => c.split(';')[0])].join('; ');
}
