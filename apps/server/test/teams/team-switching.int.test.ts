import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTeam, FIXTURE_PASSWORD, identityTeams, type NewTestUser } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('identity: teams', () => {
  let t: TestApp;
  let teamA: number;
  let teamB: number;
  let newUser: NewTestUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ teamA, teamB, newUser } = await identityTeams(t));
  });
  afterAll(() => t.close());

  describe('teams', () => {
    it('switching team changes the role in force; a team the user is not in is refused', async () => {
      const u = await newUser({ sfa: false, role: 'Viewer' });
      await t.ctx.db
        .insertInto('team_memberships')
        .values({ user_id: u.id, team_id: teamB, role: 'Admin' })
        .execute();
      const c = t.client();
      const login = await c.login(u.username, FIXTURE_PASSWORD);
      expect(login.user).toMatchObject({ team_id: teamA, role: 'Viewer' });
      const teams = (await c.get(`/api/userTeamsData/${u.id}`)).json();
      expect(teams).toEqual(
        expect.arrayContaining([
          { team_id: teamA, team_name: 'Identity A', role: 'Viewer' },
          { team_id: teamB, team_name: 'Identity B', role: 'Admin' },
        ]),
      );
      // The body's role is ignored: the membership decides.
      const switched = await c.post('/api/selectTeam', {
        teamId: teamB,
        teamName: 'Identity B',
        role: 'Sys_Admin',
      });
      expect(switched.json().user).toMatchObject({ team_id: teamB, role: 'Admin' });
      expect((await c.get('/api/auth/user')).json().user.role).toBe('Admin');
      expect((await c.post('/api/userTrials', { trialNumber: '1', trialName: 'B trial' })).statusCode).toBe(
        200,
      );
      const stranger = await createTestTeam(t, 'Identity C');
      const refused = await c.post('/api/selectTeam', { teamId: stranger });
      expect(refused.statusCode).toBe(403);
      expect((await c.get('/api/auth/user')).json().user.team_id).toBe(teamB);
      const other = await newUser({ sfa: false });
      expect((await c.get(`/api/userTeamsData/${other.id}`)).statusCode).toBe(404);
      expect((await c.get('/api/team')).json()).toHaveLength(2);
      // The last team chosen is where the next sign-in lands.
      expect((await t.client().login(u.username, FIXTURE_PASSWORD)).user.team_id).toBe(teamB);
    });
  });
});
