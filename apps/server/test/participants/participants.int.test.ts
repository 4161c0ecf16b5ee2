import { PARTICIPANT_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failAuditOf } from '../support/failing-audit.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Each test makes its own teams and trials: an open team (shows email and notes, at most 4
// participants, trial 'Heart Rate' #7 → code HR7) and a closed one (hidden fields unknown → both hidden).
describe('participants', () => {
  let t: TestApp;
  let teams = 0;
  const teamWithTrial = async (
    team: Parameters<typeof teamWithRoles>[2],
    trialNumber: string,
    trialName: string,
  ) => {
    const f = await teamWithRoles(t, `Participants ${++teams}`, team);
    const res = await f.as.Admin.post('/api/userTrials', { trialNumber, trialName });
    expect(res.statusCode).toBe(200);
    return { ...f, trialId: res.json().trialId as number };
  };
  const openTeam = () => teamWithTrial({ hiddenFields: [], maxParticipants: 4 }, '7', 'Heart Rate');
  const closedTeam = () => teamWithTrial({}, '1', 'Blind');

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  type TeamWithTrial = TeamFixture & { trialId: number };
  const add = (f: TeamWithTrial, body: Record<string, unknown>, role: keyof TeamFixture['as'] = 'User') =>
    f.as[role].post('/api/trialParticipants', { trialId: f.trialId, ...body });

  it('field rules give the exact messages and store nothing', async () => {
    const open = await openTeam();
    const { trialId } = open;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ email: '' }, 'email', PARTICIPANT_MESSAGES.emailRequired],
      [{ email: 'nope' }, 'email', PARTICIPANT_MESSAGES.emailInvalid],
      [{ email: 'a@x.example', age: '0' }, 'age', PARTICIPANT_MESSAGES.ageAboveZero],
      [{ email: 'a@x.example', age: '1234' }, 'age', PARTICIPANT_MESSAGES.ageMaxDigits],
      [{ email: 'a@x.example', age: '4a' }, 'age', PARTICIPANT_MESSAGES.ageDigits],
      [{ email: 'a@x.example', age: -3 }, 'age', PARTICIPANT_MESSAGES.ageDigits],
      [{ email: 'a@x.example', notes: 'n'.repeat(301) }, 'notes', PARTICIPANT_MESSAGES.notesTooLong],
      [{ email: 'a@x.example', codeSuffix: 'AB' }, 'codeSuffix', PARTICIPANT_MESSAGES.suffixRule],
      [{ email: 'a@x.example', codeSuffix: '1234567890123' }, 'codeSuffix', PARTICIPANT_MESSAGES.suffixRule],
      [{ email: 'a@x.example', codeSuffix: '12-3' }, 'codeSuffix', PARTICIPANT_MESSAGES.suffixRule],
    ];
    for (const [body, path, message] of cases) {
      const res = await add(open, body, 'Admin');
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors).toContainEqual({ path, message });
    }
    expect((await open.as.User.get(`/api/trialParticipants/${trialId}`)).statusCode).toBe(404); // User is not on the trial yet
    expect((await open.as.Admin.get(`/api/trialParticipants/${trialId}`)).json().participants).toEqual([]);
  });

  it('adds with a code = trial code, dash, suffix; codes are unique in the trial', async () => {
    const open = await openTeam();
    const res = await add(
      open,
      {
        email: 'Ann@X.example',
        gender: 'female',
        age: '42',
        notes: 'ok',
        codeSuffix: '001_a'.replace('a', ''),
      },
      'Admin',
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ participant_code: 'HR7-001_', participant_code_suffix: '001_' });
    expect(body.participant).toMatchObject({
      email: 'Ann@X.example',
      gender: 'female',
      age: 42,
      notes: 'ok',
    });
    const dup = await add(open, { email: 'other@x.example', codeSuffix: '001_' }, 'Admin');
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      message: PARTICIPANT_MESSAGES.codeTaken,
      reason: 'CodeTaken',
      displayToUser: true,
    });
    const sameEmail = await add(open, { email: 'ann@x.EXAMPLE' }, 'Admin');
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toMatchObject({
      message: PARTICIPANT_MESSAGES.emailTaken,
      reason: 'EmailTaken',
    });
    // A participant without code is fine.
    const noCode = await add(open, { email: 'bo@x.example', codeSuffix: '' }, 'Admin');
    expect(noCode.json()).toMatchObject({ participant_code: null, participant_code_suffix: null });
  });

  it('code edits: unchanged, changed, taken, cleared', async () => {
    const open = await openTeam();
    const { trialId } = open;
    const closedTrialId = (await closedTeam()).trialId;
    const ann = {
      id: (await add(open, { email: 'ann@x.example', codeSuffix: '001_' }, 'Admin')).json().participantId,
    };
    const bo = { id: (await add(open, { email: 'bo@x.example' }, 'Admin')).json().participantId };
    const url = (id: number) => `/api/trialParticipants/${trialId}/${id}/code`;
    expect((await open.as.Admin.request('PATCH', url(ann.id), { suffix: '001_' })).json()).toEqual({
      participant_code: 'HR7-001_',
      changed: false,
    });
    const taken = await open.as.Admin.request('PATCH', url(bo.id), { suffix: '001_' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Participant code HR7-001_ is already taken in this trial.');
    expect((await open.as.Admin.request('PATCH', url(bo.id), { suffix: '77' })).json()).toEqual({
      participant_code: 'HR7-77',
      changed: true,
    });
    expect((await open.as.Admin.request('PATCH', url(ann.id), { suffix: null })).json()).toEqual({
      participant_code: null,
      changed: true,
    });
    const after = (await open.as.Admin.get(`/api/trialParticipants/${trialId}`)).json().participants;
    expect(after.find((p: { id: number }) => p.id === ann.id).participant_code).toBeNull();
    // The cleared code is free again.
    expect((await open.as.Admin.request('PATCH', url(bo.id), { suffix: '001_' })).statusCode).toBe(200);
    const bad = await open.as.Admin.request('PATCH', url(bo.id), { suffix: 'X' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].message).toBe(PARTICIPANT_MESSAGES.suffixRule);
    const wrongTrial = await open.as.Admin.request(
      'PATCH',
      `/api/trialParticipants/${closedTrialId}/${bo.id}/code`,
      { suffix: '5' },
    );
    expect(wrongTrial.statusCode).toBe(404);
    expect(wrongTrial.json().message).toBe(PARTICIPANT_MESSAGES.codeNotFound);
  });

  it('respects the team participant limit', async () => {
    const open = await openTeam();
    const { trialId } = open;
    await add(open, { email: 'a@x.example' }, 'Admin');
    await add(open, { email: 'b@x.example' }, 'Admin');
    await add(open, { email: 'c@x.example' }, 'Admin');
    await add(open, { email: 'd@x.example' }, 'Admin');
    const res = await add(open, { email: 'e@x.example' }, 'Admin');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      message: PARTICIPANT_MESSAGES.limitReached,
      reason: 'LimitReached',
      displayToUser: true,
    });
    const n = (await open.as.Admin.get(`/api/trialParticipants/${trialId}`)).json().participants.length;
    expect(n).toBe(4);
  });

  it('hidden fields are never sent; a placeholder email is generated and notes stay empty', async () => {
    const closed = await closedTeam();
    const closedTrialId = closed.trialId;
    const res = await closed.as.Admin.post('/api/trialParticipants', {
      trialId: closedTrialId,
      email: 'real@person.example',
      notes: 'should not be kept',
      age: 30,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().participant).not.toHaveProperty('email');
    expect(res.json().participant).not.toHaveProperty('notes');
    const stored = await t.ctx.db
      .selectFrom('participants')
      .selectAll()
      .where('id', '=', res.json().participantId)
      .executeTakeFirstOrThrow();
    expect(stored.email).toMatch(/^participant-[0-9a-f-]+@hidden\.invalid$/);
    expect(stored.notes).toBeNull();
    const list = await closed.as.Admin.get(`/api/trialParticipants/${closedTrialId}`);
    expect(list.body).not.toContain('hidden.invalid');
    expect(list.json().hiddenFields).toEqual(['email', 'notes']);
    expect(list.json().participants[0]).not.toHaveProperty('email');
    const edit = await closed.as.Admin.put('/api/participant', {
      id: res.json().participantId,
      email: 'x@y.example',
    });
    expect(edit.statusCode).toBe(400);
  });

  it('edits and deletes with audit; Viewer cannot; other teams get 404', async () => {
    const open = await openTeam();
    const { trialId } = open;
    const closed = await closedTeam();
    const first = {
      id: (await add(open, { email: 'first@x.example', codeSuffix: '1' }, 'Admin')).json().participantId,
    };
    const code = (suffix: string | null) =>
      open.as.Admin.request('PATCH', `/api/trialParticipants/${trialId}/${first.id}/code`, { suffix });
    expect((await code('2')).statusCode).toBe(200);
    expect((await code(null)).statusCode).toBe(200);
    const edited = await open.as.Admin.put('/api/participant', {
      id: first.id,
      gender: 'other',
      age: '55',
      notes: 'changed',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().participant).toMatchObject({ gender: 'other', age: 55, notes: 'changed' });

    expect((await open.as.Viewer.put('/api/participant', { id: first.id, age: 3 })).statusCode).toBe(403);
    expect((await open.as.Viewer.delete('/api/participant', { id: first.id })).statusCode).toBe(403);
    expect(
      (await open.as.Viewer.post('/api/trialParticipants', { trialId, email: 'v@x.example' })).statusCode,
    ).toBe(403);
    for (const res of [
      await closed.as.Sys_Admin.put('/api/participant', { id: first.id, age: 3 }),
      await closed.as.Sys_Admin.delete('/api/participant', { id: first.id }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(PARTICIPANT_MESSAGES.notFound);
    }
    const del = await open.as.Admin.delete('/api/participant', { id: first.id });
    expect(del.statusCode).toBe(200);
    const ids = (await open.as.Admin.get(`/api/trialParticipants/${trialId}`))
      .json()
      .participants.map((p: { id: number }) => p.id);
    expect(ids).not.toContain(first.id);
    const actions = (
      await t.ctx.db
        .selectFrom('audit_log')
        .select('action')
        .where('entity_type', '=', 'participant')
        .where('entity_id', '=', String(first.id))
        .orderBy('id')
        .execute()
    ).map((r) => r.action);
    expect(actions).toEqual([
      'participant.create',
      'participant.code.change',
      'participant.code.clear',
      'participant.update',
      'participant.delete',
    ]);
  });

  it('adding a participant is one transaction with its audit row: a failed audit leaves no participant', async () => {
    const closed = await closedTeam();
    const closedTrialId = closed.trialId;
    const body = { trialId: closedTrialId, email: 'tx@x.example', codeSuffix: '900' };
    const count = async () =>
      (await t.ctx.db.selectFrom('participants').select('id').where('trial_id', '=', closedTrialId).execute())
        .length;
    const before = await count();
    const restore = await failAuditOf(t, 'participant.create');
    try {
      const res = await closed.as.Admin.post('/api/trialParticipants', body);
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      expect(res.json()).toMatchObject({ reason: 'DBError', displayToUser: false, errors: [], user: null });
      expect(res.json().location).toBe('POST /api/trialParticipants');
      expect(await count()).toBe(before);
    } finally {
      await restore();
    }
    // Nothing half-made holds the code: the same add now succeeds, audited.
    const ok = await closed.as.Admin.post('/api/trialParticipants', body);
    expect(ok.statusCode).toBe(200);
    expect(await count()).toBe(before + 1);
    const audited = await t.ctx.db
      .selectFrom('audit_log')
      .select('entity_id')
      .where('action', '=', 'participant.create')
      .where('entity_id', '=', String(ok.json().participantId))
      .execute();
    expect(audited).toHaveLength(1);
  });

  it('a Viewer who is a trial user sees its participants but is refused adding one (403); nothing is stored', async () => {
    // The trials journey's Viewer: the trial is on their dashboard; their own session, with its CSRF
    // token (as a script in the page would send it), tries the write.
    const f = await teamWithRoles(t, 'Viewer Trial Team', { hiddenFields: [] });
    const trial = (
      await f.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Sleep and Activity' })
    ).json().trialId;
    expect(
      (await f.as.Admin.post('/api/trialParticipants', { trialId: trial, email: 'seen@x.example' }))
        .statusCode,
    ).toBe(200);
    const viewerEmail = (await f.as.Viewer.get('/api/auth/user')).json().user.email;
    expect(
      (await f.as.Admin.post('/api/trialUsers', { userEmail: viewerEmail, trialId: trial })).statusCode,
    ).toBe(200);
    const emails = async (role: 'Admin' | 'Viewer') =>
      (await f.as[role].get(`/api/trialParticipants/${trial}`))
        .json()
        .participants.map((p: { email: string }) => p.email);
    expect(await emails('Viewer')).toEqual(['seen@x.example']);

    const refused = await f.as.Viewer.post('/api/trialParticipants', {
      trialId: trial,
      email: 'sneaky@x.example',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'Unauthorized', reason: 'Forbidden' });
    expect(await emails('Admin')).toEqual(['seen@x.example']);
  });
});
