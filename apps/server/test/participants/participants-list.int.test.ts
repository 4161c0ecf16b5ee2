/*
 * GET /api/trialParticipants/{trialId} (issue #9 load work): the spec's
 * answer unchanged, an optional page of it (?page=&pageSize=) with the
 * total, compression of large answers, and the same visibility rules.
 */

import { gunzipSync } from 'node:zlib';
import { TRIAL_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScope } from '../../src/access/system.js';
import { insertParticipants } from '../../src/features/participants/repo.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('the participant list', () => {
  let t: TestApp;
  let open: TeamFixture;
  let closed: TeamFixture;
  let trialId: number;
  let bigTrialId: number;
  let closedTrialId: number;

  beforeAll(async () => {
    t = await createTestApp();
    open = await teamWithRoles(t, 'List Open', { hiddenFields: [] });
    closed = await teamWithRoles(t, 'List Closed');
    trialId = (await open.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'List' })).json()
      .trialId;
    for (const [i, notes] of ['first\nline', '', 'third'].entries()) {
      const res = await open.as.Admin.post('/api/trialParticipants', {
        trialId,
        email: `l${i}@x.example`,
        age: 30 + i,
        notes,
        codeSuffix: i === 1 ? null : String(i),
      });
      expect(res.statusCode).toBe(200);
    }
    bigTrialId = (await open.as.Admin.post('/api/userTrials', { trialNumber: '2', trialName: 'Big' })).json()
      .trialId;
    await insertParticipants(
      t.ctx.db,
      systemScope.trial('fixture', open.teamId, bigTrialId),
      Array.from({ length: 400 }, (_, i) => ({
        email: `big${i}@x.example`,
        gender: 'female' as const,
        age: 40,
        notes: 'Some notes about this participant',
        suffix: String(i),
        code: `B2-${i}`,
      })),
    );
    closedTrialId = (
      await closed.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'C' })
    ).json().trialId;
    await closed.as.Admin.post('/api/trialParticipants', { trialId: closedTrialId, age: 50 });
  });
  afterAll(() => t.close());

  it('answers as the spec has it: every participant, their fields and authorized devices, no paging fields', async () => {
    const res = await open.as.Viewer.get(`/api/trialParticipants/${trialId}`);
    // A Viewer sees only trials they are a trial user of.
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(TRIAL_MESSAGES.notFound);

    const list = (await open.as.Admin.get(`/api/trialParticipants/${trialId}`)).json();
    expect(Object.keys(list).sort()).toEqual(['hiddenFields', 'participants']);
    expect(list.hiddenFields).toEqual([]);
    expect(list.participants).toHaveLength(3);
    expect(list.participants[0]).toEqual({
      id: expect.any(Number),
      trialId,
      email: 'l0@x.example',
      gender: 'None',
      age: 30,
      notes: 'first\nline',
      participant_code: 'L1-0',
      participant_code_suffix: '0',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      authorized_devices: [],
      // No device link: nothing to sync (issue #11 sync health).
      sync: {
        status: 'none',
        lastSuccessAt: null,
        lastError: null,
        rowsStored: 0,
        daysWithData7d: 0,
        lastDataDate: null,
        resumesAt: null,
      },
    });
    expect(list.participants[1]).toMatchObject({
      notes: '',
      participant_code: null,
      participant_code_suffix: null,
    });
    const ids = list.participants.map((p: { id: number }) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('leaves hidden fields out', async () => {
    const list = (await closed.as.Admin.get(`/api/trialParticipants/${closedTrialId}`)).json();
    expect(list.hiddenFields).toEqual(['email', 'notes']);
    expect(list.participants).toHaveLength(1);
    expect(list.participants[0]).not.toHaveProperty('email');
    expect(list.participants[0]).not.toHaveProperty('notes');
    expect(list.participants[0].age).toBe(50);
  });

  it("a change of the team's hidden fields applies to the next request of a signed-in session", async () => {
    const setHidden = (fields: string[] | null) =>
      t.ctx.db
        .updateTable('teams')
        .set({ hidden_participant_fields: fields })
        .where('id', '=', open.teamId)
        .execute();
    await setHidden(['email']);
    try {
      const list = (await open.as.Admin.get(`/api/trialParticipants/${trialId}`)).json();
      expect(list.hiddenFields).toEqual(['email']);
      expect(list.participants[0]).not.toHaveProperty('email');
      expect(list.participants[0].notes).toBe('first\nline');
    } finally {
      await setHidden([]);
    }
    expect((await open.as.Admin.get(`/api/trialParticipants/${trialId}`)).json().participants[0].email).toBe(
      'l0@x.example',
    );
  });

  it("another team's trial is a 404", async () => {
    const res = await open.as.Admin.get(`/api/trialParticipants/${closedTrialId}`);
    expect(res.statusCode).toBe(404);
  });

  it('gives one page with the total when asked (?page=&pageSize=)', async () => {
    const full = (await open.as.Admin.get(`/api/trialParticipants/${bigTrialId}`)).json().participants;
    expect(full).toHaveLength(400);
    const page = (await open.as.Admin.get(`/api/trialParticipants/${bigTrialId}?page=3&pageSize=25`)).json();
    expect(page).toMatchObject({ page: 3, pageSize: 25, total: 400, hiddenFields: [] });
    expect(page.participants).toEqual(full.slice(50, 75));
    const last = (await open.as.Admin.get(`/api/trialParticipants/${bigTrialId}?page=9&pageSize=50`)).json();
    expect(last.participants).toEqual([]);
    expect(last.total).toBe(400);
    // Only one of the two: page 1, or 50 a page.
    expect(
      (await open.as.Admin.get(`/api/trialParticipants/${bigTrialId}?pageSize=10`)).json(),
    ).toMatchObject({
      page: 1,
      pageSize: 10,
    });
    expect(
      (await open.as.Admin.get(`/api/trialParticipants/${bigTrialId}?page=2`)).json().participants,
    ).toEqual(full.slice(50, 100));
    for (const bad of ['page=0', 'page=-1', 'page=abc', 'pageSize=501', 'pageSize=0', 'page=1.5']) {
      const res = await open.as.Admin.get(`/api/trialParticipants/${bigTrialId}?${bad}`);
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it('sends large answers compressed when the client accepts it, small ones as they are', async () => {
    const plain = await open.as.Admin.get(`/api/trialParticipants/${bigTrialId}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gz = await open.as.Admin.request('GET', `/api/trialParticipants/${bigTrialId}`, undefined, {
      headers: { 'accept-encoding': 'gzip, deflate' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toContain('accept-encoding');
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain.json());
    const br = await open.as.Admin.request('GET', `/api/trialParticipants/${bigTrialId}`, undefined, {
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    const refused = await open.as.Admin.request('GET', `/api/trialParticipants/${bigTrialId}`, undefined, {
      headers: { 'accept-encoding': 'gzip;q=0, br;q=0' },
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const small = await open.as.Admin.request('GET', `/api/trialParticipants/${trialId}`, undefined, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
