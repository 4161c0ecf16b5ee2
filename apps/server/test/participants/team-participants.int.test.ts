import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** GET /api/teamParticipants: the /ParticipantsPage list, across the trials the caller sees. */
describe('team participants list', () => {
  let t: TestApp;
  let open: TeamFixture; // shows email and notes
  let closed: TeamFixture; // both hidden
  let trialA: number;
  let trialB: number;

  beforeAll(async () => {
    t = await createTestApp();
    open = await teamWithRoles(t, 'List Open', { hiddenFields: [] });
    closed = await teamWithRoles(t, 'List Closed');
    trialA = (await open.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Alpha' })).json()
      .trialId;
    trialB = (await open.as.Admin.post('/api/userTrials', { trialNumber: '2', trialName: 'Beta' })).json()
      .trialId;
    for (const [trialId, email] of [
      [trialA, 'a1@x.example'],
      [trialA, 'a2@x.example'],
      [trialB, 'b1@x.example'],
    ] as const)
      expect(
        (await open.as.Admin.post('/api/trialParticipants', { trialId, email, notes: 'n' })).statusCode,
      ).toBe(200);
    const closedTrial = (
      await closed.as.Admin.post('/api/userTrials', { trialNumber: '9', trialName: 'Hidden' })
    ).json().trialId;
    await closed.as.Admin.post('/api/trialParticipants', { trialId: closedTrial, notes: 'secret' });
  });
  afterAll(() => t.close());

  it('an Admin sees every participant of every trial of the team, with the trials', async () => {
    const res = await open.as.Admin.get('/api/teamParticipants');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.hiddenFields).toEqual([]);
    expect(body.trials.map((x: { trialName: string }) => x.trialName).sort()).toEqual(['Alpha', 'Beta']);
    expect(body.participants.map((p: { email: string; trialId: number }) => [p.trialId, p.email])).toEqual([
      [trialA, 'a1@x.example'],
      [trialA, 'a2@x.example'],
      [trialB, 'b1@x.example'],
    ]);
    expect(body.participants[0]).toMatchObject({ notes: 'n', authorized_devices: [] });
  });

  it('a User or Viewer sees only the trials they are trial users of', async () => {
    expect((await open.as.User.get('/api/teamParticipants')).json()).toMatchObject({
      trials: [],
      participants: [],
    });
    const viewerEmail = (await open.as.Viewer.get('/api/auth/user')).json().user.email;
    expect(
      (await open.as.Admin.post('/api/trialUsers', { userEmail: viewerEmail, trialId: trialB })).statusCode,
    ).toBe(200);
    const body = (await open.as.Viewer.get('/api/teamParticipants')).json();
    expect(body.trials.map((x: { trialId: number }) => x.trialId)).toEqual([trialB]);
    expect(body.participants.map((p: { email: string }) => p.email)).toEqual(['b1@x.example']);
  });

  it("hidden fields are left out on the server, and another team's participants never appear", async () => {
    const body = (await closed.as.Admin.get('/api/teamParticipants')).json();
    expect(body.hiddenFields).toEqual(['email', 'notes']);
    expect(body.participants).toHaveLength(1);
    expect(body.participants[0]).not.toHaveProperty('email');
    expect(body.participants[0]).not.toHaveProperty('notes');
    expect(JSON.stringify(body)).not.toContain('x.example');
    expect(JSON.stringify((await open.as.Admin.get('/api/teamParticipants')).json())).not.toContain('Hidden');
  });

  it('needs a full sign-in', async () => {
    expect((await t.client().get('/api/teamParticipants')).statusCode).toBe(401);
  });
});
