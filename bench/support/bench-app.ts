/*
 * What the HTTP benches share: a team with one Admin (`bench`) and one trial,
 * and a signed-in staff cookie over real HTTP (the CSRF cookie and the
 * session cookie, as a browser holds them).
 */
import type { Db } from '../../apps/server/src/db/database.js';
import { createTeam } from '../../apps/server/src/features/teams/service.js';
import { createUser } from '../../apps/server/src/features/users/service.js';

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
