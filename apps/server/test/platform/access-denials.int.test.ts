/*
 * Refusals are audited: a role refusal (403), a CSRF refusal (403) and
 * another team's record (404 to a signed-in user), with who, which route
 * and why; the same for a participant's session (issue #21), the account as
 * the actor. A signed-out visitor's 404 on an unknown path is not; the
 * refusals of callers without a session are counted per address and window,
 * with an audit row at 10, 100, 1000 … refusals, never one per request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_REFUSALS } from '../../src/http/access-denials.js';
import { settleAfterResponse } from '../../src/mail/after-response.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp, type TestClient } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

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
  async function auditOf(
    action: string,
    userId: number | null,
    route: string,
    participantAccountId?: number,
  ) {
    for (let i = 0; i < 50; i++) {
      const rows = await t.ctx.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', action)
        .where('entity_id', '=', route)
        .execute();
      const row = rows.find(
        (r) =>
          r.user_id === userId &&
          (participantAccountId === undefined ||
            (r.after as { participantAccountId?: number } | null)?.participantAccountId ===
              participantAccountId),
      );
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

  describe('a participant session', () => {
    let participant: TestClient;
    let accountId: number;
    beforeAll(async () => {
      const account = { username: 'denied-participant', password: 'Patient-pw1!' };
      await t.client().post('/api/Participants/signup', {
        ...account,
        confirmPassword: account.password,
        email: 'denied-participant@x.example',
      });
      await settleAfterResponse();
      participant = t.client();
      expect((await participant.post('/api/participantAuth/login', account)).statusCode).toBe(200);
      accountId = (
        await t.ctx.db
          .selectFrom('participant_accounts')
          .select('id')
          .where('username', '=', account.username)
          .executeTakeFirstOrThrow()
      ).id;
    });

    it('another participant’s link (404): the account is the actor', async () => {
      const res = await participant.post('/api/participantAuth/sharing/999999/stop');
      expect(res.statusCode).toBe(404);
      const row = await auditOf(
        'access.denied',
        null,
        'POST /api/participantAuth/sharing/:linkId/stop',
        accountId,
      );
      expect(row).toMatchObject({ team_id: null, entity_type: 'route', ip: participant.ip });
      expect(row?.after).toEqual({
        status: 404,
        reason: 'NotFound',
        message: expect.any(String),
        by: 'participant',
        participantAccountId: accountId,
      });
    });

    it('a CSRF refusal (403)', async () => {
      const res = await participant.post('/api/participantAuth/sharing/1/stop', {}, { csrf: false });
      expect(res.statusCode).toBe(403);
      const row = await auditOf(
        'csrf.refused',
        null,
        'POST /api/participantAuth/sharing/:linkId/stop',
        accountId,
      );
      expect(row?.after).toMatchObject({ status: 403, reason: 'CsrfError', by: 'participant' });
    });

    it('a staff route (answered 401, as signed out): audited as the participant’s, not counted as anonymous', async () => {
      const res = await participant.get(`/api/trialParticipants/${trialB}`);
      expect(res.statusCode).toBe(401);
      const row = await auditOf('access.denied', null, 'GET /api/trialParticipants/:trialId', accountId);
      expect(row?.after).toMatchObject({ status: 401, by: 'participant', participantAccountId: accountId });
      const counted = await t.ctx.db
        .selectFrom('rate_limit_hits')
        .select('key')
        .where('key', '=', `refused:${participant.ip}`)
        .execute();
      expect(counted).toEqual([]);
    });
  });
});

describe('refusals without a session: counted per address and window, audited at 10, 100, 1000 …', () => {
  let t: TestApp;
  const clock = testClock('2026-03-02T09:00:00Z');
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
  });
  afterAll(() => t.close());

  const countOf = async (ip: string) =>
    (
      await t.ctx.db
        .selectFrom('rate_limit_hits')
        .select('hits')
        .where('key', '=', `refused:${ip}`)
        .executeTakeFirst()
    )?.hits ?? 0;
  /** The counter is written after the answer: waits until it holds `n`. */
  async function counted(ip: string, n: number) {
    for (let i = 0; i < 100 && (await countOf(ip)) !== n; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await countOf(ip)).toBe(n);
  }
  const rowsOf = (ip: string) =>
    t.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'user_id', 'team_id', 'entity_type', 'entity_id', 'after', 'ip'])
      .where('ip', '=', ip)
      .orderBy('id')
      .execute();
  async function refuse(client: TestClient, n: number) {
    for (let i = 0; i < n; i++) {
      const res = await client.get('/api/userTrials/');
      expect(res.statusCode).toBe(401);
    }
  }

  it('a burst of 401s from one address: one counter row, audit rows at 10 and 100 only', async () => {
    const scanner = t.client();
    await refuse(scanner, 9);
    await counted(scanner.ip, 9);
    expect(await rowsOf(scanner.ip)).toEqual([]);
    await refuse(scanner, 111);
    await counted(scanner.ip, 120);
    const rows = await rowsOf(scanner.ip);
    expect(rows.map((r) => (r.after as { refusals: number }).refusals)).toEqual([10, 100]);
    expect(rows[0]).toMatchObject({
      action: 'auth.anonymous_refusals',
      user_id: null,
      team_id: null,
      entity_type: 'address',
      entity_id: scanner.ip,
    });
    expect(rows[0]?.after).toMatchObject({
      windowMinutes: ANONYMOUS_REFUSALS.windowMs / 60_000,
      last: { route: 'GET /api/userTrials/', status: 401, reason: 'NotSignedIn' },
    });
  });

  it('each address has its own count; a new window counts again from 1', async () => {
    const a = t.client();
    const b = t.client();
    await refuse(a, 10);
    await refuse(b, 4);
    await counted(a.ip, 10);
    await counted(b.ip, 4);
    expect((await rowsOf(a.ip)).length).toBe(1);
    expect(await rowsOf(b.ip)).toEqual([]);
    clock.advance(ANONYMOUS_REFUSALS.windowMs);
    await refuse(b, 10);
    await counted(b.ip, 10);
    expect((await rowsOf(b.ip)).map((r) => (r.after as { refusals: number }).refusals)).toEqual([10]);
  });

  it('an anonymous CSRF refusal (403) is counted the same way, not audited alone', async () => {
    const c = t.client();
    const res = await c.post('/api/auth/login', { username: 'x', password: 'y' }, { csrf: false });
    expect(res.statusCode).toBe(403);
    await counted(c.ip, 1);
    expect(await rowsOf(c.ip)).toEqual([]);
  });

  it('the hourly cleanup removes ended windows, so the counters stay bounded', async () => {
    const { deleteEndedWindows } = await import('../../src/http/rate-limit-repo.js');
    const c = t.client();
    await refuse(c, 3);
    await counted(c.ip, 3);
    clock.advance(ANONYMOUS_REFUSALS.windowMs + 1);
    expect(await deleteEndedWindows(t.ctx.db, clock.now())).toBeGreaterThan(0);
    const left = await t.ctx.db
      .selectFrom('rate_limit_hits')
      .select('key')
      .where('key', 'like', 'refused:%')
      .execute();
    expect(left).toEqual([]);
  });
});
