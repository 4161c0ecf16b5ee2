/*
 * One CSRF check for every write: a token the server did not sign is refused
 * even when the cookie and the header carry the same value (a cookie planted
 * by a sibling subdomain or a man in the middle), on every write route of the
 * table and the spec's state-changing GET — the device-link routes included —
 * and the refused request changes nothing.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { API_ACCESS, STATE_CHANGING_GETS } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const writes = Object.keys(API_ACCESS).filter(
  (route) => !route.startsWith('GET ') || (STATE_CHANGING_GETS as readonly string[]).includes(route),
);

describe('forged CSRF tokens', () => {
  let t: TestApp;
  let f: TeamFixture;
  let ids: Record<string, number>;
  let auditRows: number;
  beforeAll(async () => {
    t = await createTestApp();
    f = await teamWithRoles(t, 'Csrf Team', { hiddenFields: [] });
    const trialId = (await f.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'C' })).json()
      .trialId;
    const participantId = (
      await f.as.Admin.post('/api/trialParticipants', { trialId, email: 'c@x.example' })
    ).json().participantId;
    ids = { trialId, participantId, teamId: f.teamId, userId: f.userIds.Admin, provider: 0 };
    auditRows = await countAudit();
  });
  afterAll(() => t.close());

  /** Audit entries other than the refusals themselves (which are audited: see access-denials). */
  const countAudit = async () =>
    Number(
      (
        await t.ctx.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('action', 'not in', ['csrf.refused', 'access.denied'])
          .executeTakeFirstOrThrow()
      ).n,
    );

  const url = (path: string) =>
    path
      .replace(':provider', 'fitbit')
      .replace(/:(\w+)/g, (_, name: string) => String(ids[name] ?? ids.participantId));

  const forgeries = {
    'unsigned token': () => `${randomBytes(18).toString('base64url')}.not-a-signature`,
    'token signed with another secret': () => {
      const nonce = randomBytes(18).toString('base64url');
      return `${nonce}.${createHmac('sha256', 'someone-else').update(`csrf:${nonce}`).digest('base64url')}`;
    },
  };

  it('covers the device-link writes', () => {
    expect(writes).toEqual(
      expect.arrayContaining([
        'GET /api/revokeAccessToken/:id',
        'POST /api/omronRevokeToken',
        'POST /api/participantDevices/:participantId/:provider/consentRequest',
        'POST /api/fitbitRefreshToken',
        'POST /api/fitbit-callback',
      ]),
    );
  });

  for (const [kind, forge] of Object.entries(forgeries)) {
    it.each(writes)(`%s refuses a matching cookie and header with an ${kind}`, async (route) => {
      const [method, path] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
      const token = forge();
      const client = f.as.Admin;
      const res = await t.app.inject({
        method,
        url: url(path),
        headers: { cookie: `${client.cookieHeader()}; tw_csrf=${token}`, 'x-csrf-token': token },
        ...(method === 'GET' ? {} : { payload: { id: ids.participantId, trialId: ids.trialId } }),
      });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Invalid or missing CSRF token', reason: 'CsrfError' });
    });
  }

  it('changed nothing', async () => {
    expect(await countAudit()).toBe(auditRows);
    const trials = await f.as.Admin.get('/api/userTrials/');
    expect(trials.json().map((x: { trialId: number }) => x.trialId)).toContain(ids.trialId);
    const participants = await f.as.Admin.get(`/api/trialParticipants/${ids.trialId}`);
    expect(participants.json().participants).toHaveLength(1);
  });
});
