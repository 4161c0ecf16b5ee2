/*
 * Teams and users for integration tests, made through the same services as
 * the CLI and the seed. Every user's password is FIXTURE_PASSWORD.
 */
import type { Role } from '@trialwear/contract';
import { createTeam, type NewTeam } from '../../src/features/teams/service.js';
import { createUser } from '../../src/features/users/service.js';
import type { TestApp, TestClient } from './test-app.js';

export const FIXTURE_PASSWORD = 'Fixture-pw1!';
const ROLES: Role[] = ['Sys_Admin', 'Admin', 'User', 'Viewer'];

export function createTestTeam(t: TestApp, name: string, team: Partial<NewTeam> = {}): Promise<number> {
  return createTeam(t.ctx.db, { name, ...team });
}

export interface TestUser {
  id: number;
  username: string;
  email: string;
}

let userSeq = 0;

/**
 * A user in a team: role User and a required second factor unless told
 * otherwise; username `person<N>` and email `<username>@lab.example` unless given.
 */
export async function createTestUser(
  t: TestApp,
  opts: {
    teamId: number;
    role?: Role;
    sfa?: boolean;
    username?: string;
    email?: string;
    firstName?: string;
    lastName?: string;
  },
): Promise<TestUser> {
  userSeq += 1;
  const username = opts.username ?? `person${userSeq}`;
  const email = opts.email ?? `${username}@lab.example`;
  const id = await createUser(t.ctx.db, {
    username,
    email,
    password: FIXTURE_PASSWORD,
    firstName: opts.firstName ?? 'Test',
    lastName: opts.lastName ?? `User${userSeq}`,
    teamId: opts.teamId,
    role: opts.role ?? 'User',
    sfaRequired: opts.sfa ?? true,
  });
  return { id, username, email };
}

/** A trial written straight to the database (no trial users, no audit row); answers its id. */
export async function insertTrial(
  t: TestApp,
  trial: { teamId: number; number: string; name: string; code: string },
): Promise<number> {
  const row = await t.ctx.db
    .insertInto('trials')
    .values({
      team_id: trial.teamId,
      trial_number: trial.number,
      trial_name: trial.name,
      trial_code: trial.code,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A participant of a trial written straight to the database; answers its id. */
export async function insertParticipant(
  t: TestApp,
  participant: { teamId: number; trialId: number; email: string },
): Promise<number> {
  const row = await t.ctx.db
    .insertInto('participants')
    .values({ team_id: participant.teamId, trial_id: participant.trialId, email: participant.email })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export type NewTestUser = (opts?: { sfa?: boolean; role?: Role; teamId?: number }) => Promise<TestUser>;

/** The identity tests' setting: teams 'Identity A' and 'Identity B'; newUser makes users in A unless told. */
export async function identityTeams(
  t: TestApp,
): Promise<{ teamA: number; teamB: number; newUser: NewTestUser }> {
  const teamA = await createTestTeam(t, 'Identity A');
  const teamB = await createTestTeam(t, 'Identity B');
  const newUser: NewTestUser = (opts = {}) => createTestUser(t, { ...opts, teamId: opts.teamId ?? teamA });
  return { teamA, teamB, newUser };
}

export interface TeamFixture {
  teamId: number;
  userIds: Record<Role, number>;
  /** A signed-in client per role. */
  as: Record<Role, TestClient>;
}

let teamSeq = 0;

/** A team with one signed-in user per role (no second factor), for authorization tests. */
export async function teamWithRoles(
  t: TestApp,
  name: string,
  team: Partial<NewTeam> = {},
): Promise<TeamFixture> {
  teamSeq += 1;
  const teamId = await createTestTeam(t, name, team);
  const userIds = {} as Record<Role, number>;
  const as = {} as Record<Role, TestClient>;
  for (const role of ROLES) {
    const username = `${role.toLowerCase().replace('_', '')}${teamSeq}`;
    const user = await createTestUser(t, {
      teamId,
      role,
      sfa: false,
      username,
      email: `${username}@${name.toLowerCase().replace(/\W+/g, '-')}.example`,
      firstName: role,
      lastName: name,
    });
    userIds[role] = user.id;
    as[role] = t.client();
    await as[role].login(username, FIXTURE_PASSWORD);
  }
  return { teamId, userIds, as };
}
