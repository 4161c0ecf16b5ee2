import { TRIAL_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failAuditOf } from '../support/failing-audit.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Each test makes its own team (limit 3 trials), so counts, numbers and the limit are its own.
describe('trials', () => {
  let t: TestApp;
  let teams = 0;
  const newTeam = (): Promise<TeamFixture> =>
    teamWithRoles(t, `Trials ${++teams}`, { maxTrials: 3, hiddenFields: [] });
  const addTrial = async (team: TeamFixture, trialNumber: string, trialName = `Trial ${trialNumber}`) => {
    const res = await team.as.Admin.post('/api/userTrials', { trialNumber, trialName });
    expect(res.statusCode).toBe(200);
    return res.json().trialId as number;
  };
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('validation messages are exact and nothing is stored', async () => {
    const a = await newTeam();
    const res = await a.as.Admin.post('/api/userTrials', {
      trialNumber: ' ',
      trialName: '',
      trialNotes: 'x'.repeat(301),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'trialNumber', message: TRIAL_MESSAGES.numberRequired },
      { path: 'trialName', message: TRIAL_MESSAGES.nameRequired },
      { path: 'trialNotes', message: TRIAL_MESSAGES.notesTooLong },
    ]);
    expect((await a.as.Admin.get('/api/userTrials/')).json()).toEqual([]);
  });

  it('Admin adds a trial: code generated, owner recorded and a trial user, audit written', async () => {
    const a = await newTeam();
    const res = await a.as.Admin.post('/api/userTrials', {
      trialNumber: '001',
      trialName: 'Sleep and Activity Study',
      trialNotes: 'n',
    });
    expect(res.statusCode).toBe(200);
    const { trialId, trial } = res.json();
    expect(trial).toMatchObject({
      trialId,
      trialNumber: '001',
      trialName: 'Sleep and Activity Study',
      trial_code: 'SAS001',
      participantCount: 0,
    });
    expect(trial.trialOwnerEmail).toMatch(/^admin/);
    const users = (await a.as.Admin.get(`/api/trialUsers/${trialId}`)).json();
    expect(users).toEqual([{ id: a.userIds.Admin, email: trial.trialOwnerEmail, isOwner: true }]);
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'trial.create')
      .where('team_id', '=', a.teamId)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      user_id: a.userIds.Admin,
      team_id: a.teamId,
      entity_id: String(trialId),
    });
    expect((await a.as.Admin.get(`/api/trialParticipants/${trialId}/trialCode`)).json()).toEqual({
      data: { trial_code: 'SAS001' },
    });
  });

  it('trial numbers are unique in a team; codes stay unique', async () => {
    const a = await newTeam();
    const b = await newTeam();
    await addTrial(a, '001', 'Sleep and Activity Study');
    const dup = await a.as.Admin.post('/api/userTrials', { trialNumber: '001', trialName: 'Other' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(TRIAL_MESSAGES.numberTaken);
    // The same number in another team is fine.
    expect(
      (
        await b.as.Admin.post('/api/userTrials', {
          trialNumber: '001',
          trialName: 'Sleep and Activity Study',
        })
      ).statusCode,
    ).toBe(200);
    const second = await a.as.Admin.post('/api/userTrials', {
      trialNumber: '0-01',
      trialName: 'Sleep and Activity Study',
    });
    expect(second.json().trial.trial_code).toBe('SAS0012');
  });

  it('respects the team max_trials', async () => {
    const a = await newTeam();
    await addTrial(a, '001');
    await addTrial(a, '002');
    expect(
      (await a.as.Sys_Admin.post('/api/userTrials', { trialNumber: '003', trialName: 'Third' })).statusCode,
    ).toBe(200);
    const res = await a.as.Admin.post('/api/userTrials', { trialNumber: '004', trialName: 'Fourth' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: TRIAL_MESSAGES.limitReached, displayToUser: true });
  });

  it('visibility: Admin sees all of the team; User and Viewer only their trials', async () => {
    const a = await newTeam();
    for (const n of ['001', '002', '003']) await addTrial(a, n);
    const adminView = (await a.as.Admin.get('/api/userTrials/')).json();
    expect(adminView).toHaveLength(3);
    expect((await a.as.User.get('/api/userTrials/')).json()).toEqual([]);
    const target = adminView[0];
    const userEmail = (await a.as.User.get('/api/auth/user')).json().user.email;
    expect(
      (await a.as.Admin.post('/api/trialUsers', { userEmail, trialId: target.trialId })).statusCode,
    ).toBe(200);
    const userView = (await a.as.User.get('/api/userTrials')).json();
    expect(userView.map((x: { trialId: number }) => x.trialId)).toEqual([target.trialId]);
    expect((await a.as.Viewer.get('/api/userTrials/')).json()).toEqual([]);
  });

  it('roles: User edits, cannot add or delete; Viewer can do none', async () => {
    const a = await newTeam();
    const trialId = await addTrial(a, '001');
    const userEmail = (await a.as.User.get('/api/auth/user')).json().user.email;
    expect((await a.as.Admin.post('/api/trialUsers', { userEmail, trialId })).statusCode).toBe(200);
    const [trial] = (await a.as.User.get('/api/userTrials/')).json();
    const edit = await a.as.User.put('/api/userTrials', {
      trialId: trial.trialId,
      trialNumber: trial.trialNumber,
      trialName: 'Renamed',
      trialNotes: '',
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().trial.trialName).toBe('Renamed');
    expect((await a.as.User.post('/api/userTrials', { trialNumber: '9', trialName: 'x' })).statusCode).toBe(
      403,
    );
    expect((await a.as.User.delete('/api/userTrials', { trialId: trial.trialId })).statusCode).toBe(403);
    for (const res of [
      await a.as.Viewer.post('/api/userTrials', { trialNumber: '9', trialName: 'x' }),
      await a.as.Viewer.put('/api/userTrials', { trialId: trial.trialId, trialNumber: '9', trialName: 'x' }),
      await a.as.Viewer.delete('/api/userTrials', { trialId: trial.trialId }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Unauthorized', reason: 'Forbidden' });
    }
  });

  it("another team's trial is never readable or writable (404)", async () => {
    const a = await newTeam();
    const b = await newTeam();
    await addTrial(b, '001');
    const [foreign] = (await b.as.Admin.get('/api/userTrials/')).json();
    for (const res of [
      await a.as.Sys_Admin.put('/api/userTrials', {
        trialId: foreign.trialId,
        trialNumber: 'x',
        trialName: 'x',
      }),
      await a.as.Sys_Admin.delete('/api/userTrials', { trialId: foreign.trialId }),
      await a.as.Sys_Admin.get(`/api/trialParticipants/${foreign.trialId}`),
      await a.as.Sys_Admin.get(`/api/trialParticipants/${foreign.trialId}/trialCode`),
      await a.as.Admin.get(`/api/trialUsers/${foreign.trialId}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(TRIAL_MESSAGES.notFound);
    }
    const still = (await b.as.Admin.get('/api/userTrials/')).json()[0];
    expect(still.trialName).toBe(foreign.trialName);
  });

  it('a trial with participants cannot be deleted; an empty one can', async () => {
    const a = await newTeam();
    const withPeople = { trialId: await addTrial(a, '001') };
    const empty = { trialId: await addTrial(a, '002') };
    await a.as.Admin.post('/api/trialParticipants', { trialId: withPeople.trialId, email: 'p1@x.example' });
    const refused = await a.as.Admin.delete('/api/userTrials', { trialId: withPeople.trialId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(TRIAL_MESSAGES.hasParticipants);
    const ok = await a.as.Admin.delete('/api/userTrials', { trialId: empty.trialId });
    expect(ok.statusCode).toBe(200);
    const ids = (await a.as.Admin.get('/api/userTrials/')).json().map((x: { trialId: number }) => x.trialId);
    expect(ids).not.toContain(empty.trialId);
    expect(ids).toContain(withPeople.trialId);
  });

  it('creating a trial is one transaction with its audit row: a failed audit leaves no trial or trial user', async () => {
    const b = await newTeam();
    const form = { trialNumber: 'TX-1', trialName: 'Rolled Back' };
    const trialRows = () =>
      t.ctx.db
        .selectFrom('trials')
        .select('id')
        .where('team_id', '=', b.teamId)
        .where('trial_number', '=', 'TX-1')
        .execute();
    const trialUserCount = async () =>
      (await t.ctx.db.selectFrom('trial_users').select('trial_id').execute()).length;
    const usersBefore = await trialUserCount();
    const restore = await failAuditOf(t, 'trial.create');
    try {
      const res = await b.as.Admin.post('/api/userTrials', form);
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      expect(res.json()).toMatchObject({
        reason: 'DBError',
        displayToUser: false,
        location: 'POST /api/userTrials',
        errors: [],
      });
      expect(await trialRows()).toEqual([]);
      expect(await trialUserCount()).toBe(usersBefore);
    } finally {
      await restore();
    }
    // The number is still free: nothing of the failed attempt was kept.
    const ok = await b.as.Admin.post('/api/userTrials', form);
    expect(ok.statusCode).toBe(200);
    expect(await trialRows()).toHaveLength(1);
    expect(await trialUserCount()).toBe(usersBefore + 1);
  });
});
