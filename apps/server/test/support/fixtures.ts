import type { Role } from '@trialwear/contract';
import { createTeam, type NewTeam } from '../../src/features/teams/service.js';
import { createUser } from '../../src/features/users/service.js';
import type { TestApp, TestClient } from './test-app.js';

export const FIXTURE_PASSWORD = 'Fixture-pw1!';
const ROLES: Role[] = ['Sys_Admin', 'Admin', 'User', 'Viewer'];

export interface TeamFixture {
  teamId: number;
  userIds: Record<Role, number>;
  /** A signed-in client per role. */
  as: Record<Role, TestClient>;
}

let seq = 0;

/** A team with one signed-in user per role (no second factor), for authorization tests. */
export async function teamWithRoles(
  t: TestApp,
  name: string,
  team: Partial<NewTeam> = {},
): Promise<TeamFixture> {
  seq += 1;
  const teamId = await createTeam(t.ctx.db, { name, ...team });
  const userIds = {} as Record<Role, number>;
  const as = {} as Record<Role, TestClient>;
  for (const role of ROLES) {
    const username = `${role.toLowerCase().replace('_', '')}${seq}`;
    userIds[role] = await createUser(t.ctx.db, {
      username,
      email: `${username}@${name.toLowerCase().replace(/\W+/g, '-')}.example`,
      password: FIXTURE_PASSWORD,
      firstName: role,
      lastName: name,
      teamId,
      role,
      sfaRequired: false,
    });
    as[role] = t.client();
    await as[role].login(username, FIXTURE_PASSWORD);
  }
  return { teamId, userIds, as };
}
