/*
 * Refusals are audited: a role refusal (403), a CSRF refusal (403) and
 * another team's record (404 to a signed-in user), with who, which route
 * and why. A signed-out visitor's 404 on an unknown path is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('audit of refusals', () => {
  let t: TestApp;
  let a: TeamFixture;
  let b: TeamFixture;
  let trialB: number;
  beforeAll(async () => {
    t = await createTestApp();
    a = await teamWithRoles(t, 'Denial A');
    b = await teamWithRoles(t, 'Denial B');
    trialB = (await b.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'B' })).json().trialId;
  });
  afterAll(() => t.close());

  /** Waits for the entry: refusals are audited after the answer is sent. */
  async function auditOf(action: string, userId: number | null, route: string) {
    for (let i = 0; i < 50; i++) {
      const rows = await t.ctx.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', action)
        .where('entity_id', '=', route)
        .execute();
      const row = rows.find((r) => r.user_id === userId);
      if (row) return row;
      await new Promise((r) => setTimeout(r, 20));
    }
    return undefined;
  }

  it('a role refusal', async () => {
    const res = await a.as.Viewer.post('/api/userTrials', { trialNumber: '9', trialName: 'No' });
    expect(res.statusCode).toBe(403);
    const row = await auditOf('access.denied', a.userIds.Viewer, 'POST /api/userTrials');
    expect(row).toMatchObject({ team_id: a.teamId, entity_type: 'route' });
    expect(row?.after).toMatchObject({ status: 403, reason: 'Forbidden' });
  });

  it('another team’s record', async () => {
    const res = await a.as.Admin.get(`/api/trialParticipants/${trialB}`);
    expect(res.statusCode).toBe(404);
    const row = await auditOf('access.denied', a.userIds.Admin, 'GET /api/trialParticipants/:trialId');
    expect(row?.after).toMatchObject({ status: 404, reason: 'NotFound' });
  });

  it('a CSRF refusal', async () => {
    const res = await a.as.User.post('/api/userTrials', {}, { csrf: false });
    expect(res.statusCode).toBe(403);
    const row = await auditOf('csrf.refused', a.userIds.User, 'POST /api/userTrials');
    expect(row?.after).toMatchObject({ status: 403, reason: 'CsrfError' });
  });

  it('not a signed-out visitor on an unknown path', async () => {
    const res = await t.client().get('/api/no-such-thing');
    expect(res.statusCode).toBe(404);
    await new Promise((r) => setTimeout(r, 100));
    const rows = await t.ctx.db
      .selectFrom('audit_log')
      .select('id')
      .where('entity_id', 'like', '%no-such-thing%')
      .execute();
    expect(rows).toEqual([]);
  });
});
