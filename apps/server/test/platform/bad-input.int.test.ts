/*
 * Bad input (issue #9). Control characters in request text: PostgreSQL refuses NUL in
 * text, which made each of these a 500. The input guard refuses NUL and the
 * other control characters in every body, query and path string with one
 * 400; multi-line fields (notes, the contact message) keep tab and newlines.
 * Ids (issue #21): only decimal digits in a path or query (the contract's
 * idSchema), checked on every route of the API_ACCESS table with an id in
 * its path, so a new route is covered without touching this file.
 */
import {
  API_ACCESS,
  type ApiAccess,
  type ApiRoute,
  INPUT_MESSAGES,
  STATE_CHANGING_GETS,
} from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAfterResponse } from '../../src/mail/after-response.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp, type TestClient } from '../support/test-app.js';

const NUL = '\u0000';

describe('text with control characters', () => {
  let t: TestApp;
  let f: TeamFixture;
  let trialId: number;
  let participantId: number;
  const tableCounts = async () => {
    const rows = await Promise.all(
      (['trials', 'participants', 'contact_messages', 'participant_accounts', 'users'] as const).map(
        async (table) =>
          Number(
            (
              await t.ctx.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll<string>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ),
      ),
    );
    return rows;
  };

  beforeAll(async () => {
    t = await createTestApp();
    f = await teamWithRoles(t, 'Text Team', { hiddenFields: [] });
    trialId = (await f.as.Admin.post('/api/userTrials', { trialNumber: 'T1', trialName: 'Text' })).json()
      .trialId;
    participantId = (
      await f.as.Admin.post('/api/trialParticipants', { trialId, email: 'text@x.example' })
    ).json().participantId;
  });
  afterAll(() => t.close());

  const contact = {
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@example.org',
    subject: 'Access question',
    message: 'How do I request access for a new coordinator?',
  };

  type Case = [
    name: string,
    method: 'POST' | 'PUT' | 'GET',
    url: () => string,
    body: () => unknown,
    path: string,
  ];
  const cases: Case[] = [
    [
      'trial name',
      'POST',
      () => '/api/userTrials',
      () => ({ trialNumber: 'N1', trialName: `a${NUL}b` }),
      'trialName',
    ],
    [
      'trial number',
      'POST',
      () => '/api/userTrials',
      () => ({ trialNumber: `N${NUL}`, trialName: 'ab' }),
      'trialNumber',
    ],
    [
      'trial notes',
      'POST',
      () => '/api/userTrials',
      () => ({ trialNumber: 'N2', trialName: 'ab', trialNotes: NUL }),
      'trialNotes',
    ],
    [
      'edited trial name',
      'PUT',
      () => '/api/userTrials',
      () => ({ trialId, trialNumber: 'T1', trialName: `x${NUL}` }),
      'trialName',
    ],
    [
      'participant notes',
      'POST',
      () => '/api/trialParticipants',
      () => ({ trialId, email: 'n@x.example', notes: `a${NUL}` }),
      'notes',
    ],
    [
      'edited participant notes',
      'PUT',
      () => '/api/participant',
      () => ({ id: participantId, notes: `${NUL}` }),
      'notes',
    ],
    [
      'login username',
      'POST',
      () => '/api/auth/login',
      () => ({ username: `admin${NUL}`, password: 'x' }),
      'username',
    ],
    [
      'contact subject',
      'POST',
      () => '/api/contactUs',
      () => ({ ...contact, subject: `Hello${NUL}there` }),
      'subject',
    ],
    [
      'contact message',
      'POST',
      () => '/api/contactUs',
      () => ({ ...contact, message: `Hello there${NUL}, how are you?` }),
      'message',
    ],
    [
      'consent callback state',
      'POST',
      () => '/api/fitbit-callback',
      () => ({ authCode: 'c', participantId: `1.${NUL}.x` }),
      'participantId',
    ],
    [
      'consent link token (query)',
      'GET',
      () => `/api/consent/fitbit/authorizeUrl?id=${participantId}&t=%00`,
      () => undefined,
      'query.t',
    ],
  ];

  it.each(cases)(
    'NUL in the %s: 400 with the contract message, nothing stored',
    async (_name, method, url, body, path) => {
      const before = await tableCounts();
      const res = await f.as.Admin.request(method, url(), body());
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        message: INPUT_MESSAGES.controlCharacters,
        reason: 'ValidationError',
        displayToUser: true,
        errors: [{ path, message: INPUT_MESSAGES.controlCharacters }],
      });
      expect(await tableCounts()).toEqual(before);
    },
  );

  it('other control characters are refused too; single-line fields refuse tab and newline', async () => {
    for (const c of ['\u0001', '\u001b', '\u007f', '\u0085', '\t', '\n']) {
      const res = await f.as.Admin.post('/api/userTrials', { trialNumber: 'C1', trialName: `a${c}b` });
      expect(res.statusCode, JSON.stringify(c)).toBe(400);
      expect(res.json().message).toBe(INPUT_MESSAGES.controlCharacters);
    }
  });

  it('multi-line fields keep tab, newline and carriage return', async () => {
    const notes = 'line one\r\nline two\n\tindented';
    const trial = await f.as.Admin.post('/api/userTrials', {
      trialNumber: 'ML1',
      trialName: 'Multi',
      trialNotes: notes,
    });
    expect(trial.statusCode, trial.body).toBe(200);
    expect(trial.json().trial.trialNotes).toBe(notes);
    const p = await f.as.Admin.post('/api/trialParticipants', { trialId, email: 'ml@x.example', notes });
    expect(p.statusCode, p.body).toBe(200);
    expect(p.json().participant.notes).toBe(notes);
    const c = await t
      .client()
      .post('/api/contactUs', { ...contact, message: 'Hello,\r\n\tsecond line here.' });
    expect(c.statusCode, c.body).toBe(200);
  });

  it('a NUL in a path parameter is a 400, not a 500', async () => {
    const res = await f.as.Admin.get('/api/participantDevices/1/fit%00bit');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(INPUT_MESSAGES.controlCharacters);
  });

  it('an id over 2^31-1 in the sign-up approval (the last id field without the contract limit) is a 400', async () => {
    const res = await f.as.Sys_Admin.post('/api/userSignUpPermission/approveSignUp', {
      email: 'new@x.example',
      role: 'User',
      teamId: 2_147_483_648,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'teamId', message: 'Invalid id' }]);
  });

  it('a caller without the right still gets 401 first', async () => {
    const res = await t.client().post('/api/userTrials', { trialNumber: NUL, trialName: NUL });
    expect(res.statusCode).toBe(401);
  });
});

/** Path parameters that are not record ids, with a valid value each. Every other parameter of the table is an id. */
const TEXT_PARAMS: Record<string, string> = {
  provider: 'fitbit',
  deviceType: 'tracker',
  metricKey: 'steps',
  query: 'egvs',
  email: '-',
  resourcePath: encodeURIComponent('/activities/steps/date/2026-01-01/2026-01-07.json'),
};
/** Routes whose `:id` is an export job's uuid, not a record id: refused too (400), with the job's message. */
const UUID_ID = /^\/api\/dataExport\/jobs\/:id/;
const BAD_IDS = [' 1', '0x10', '1e3', '+1', '1.0', '01', '-1', '0', '1 '];

const routeParams = (route: string) => [...route.matchAll(/:(\w+)/g)].map((m) => m[1]!);
const isIdParam = (route: string, param: string) =>
  !(param in TEXT_PARAMS) && !(param === 'id' && UUID_ID.test(route.split(' ')[1]!));
const routesWithIds = (Object.entries(API_ACCESS) as Array<[ApiRoute, ApiAccess]>).filter(([route]) =>
  routeParams(route).some((p) => isIdParam(route, p)),
);

describe('ids in paths and query strings: decimal digits only', () => {
  let t: TestApp;
  let f: TeamFixture;
  let participant: TestClient;
  beforeAll(async () => {
    t = await createTestApp();
    f = await teamWithRoles(t, 'Id Team', { hiddenFields: [] });
    const account = { username: 'id-participant', password: 'Patient-pw1!' };
    await t.client().post('/api/Participants/signup', {
      ...account,
      confirmPassword: account.password,
      email: 'id-participant@x.example',
    });
    await settleAfterResponse();
    participant = t.client();
    expect((await participant.post('/api/participantAuth/login', account)).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('every path parameter of the table is either an id or a known text parameter', () => {
    const names = new Set(Object.keys(API_ACCESS).flatMap(routeParams));
    const unknown = [...names].filter((n) => !(n in TEXT_PARAMS) && !/(^id|Id)$/.test(n));
    // A new parameter name must be classified here: an id (named *Id) or a text parameter with a valid value.
    expect(unknown).toEqual([]);
    expect(routesWithIds.length).toBeGreaterThan(30);
  });

  const cases = routesWithIds.flatMap(([route, access]) =>
    routeParams(route)
      .filter((p) => isIdParam(route, p))
      .map((param) => [route, param, access] as const),
  );

  it.each(cases)('%s: :%s takes only decimal digits', async (route, param, access) => {
    const [method, path] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
    const client = access === 'participant' ? participant : f.as.Sys_Admin;
    const headers = STATE_CHANGING_GETS.includes(route)
      ? { 'x-csrf-token': await client.csrfToken() }
      : undefined;
    for (const bad of BAD_IDS) {
      const url = path.replace(/:(\w+)/g, (_, name: string) =>
        name === param ? encodeURIComponent(bad) : (TEXT_PARAMS[name] ?? '1'),
      );
      const res = await client.request(method, url, method === 'GET' ? undefined : {}, { headers });
      expect(res.statusCode, `${JSON.stringify(bad)}: ${res.body}`).toBe(400);
      expect(res.json(), JSON.stringify(bad)).toMatchObject({
        message: 'Invalid id',
        reason: 'ValidationError',
        errors: expect.arrayContaining([{ path: param, message: 'Invalid id' }]),
      });
    }
  });

  it('an export job id (a uuid) refuses them too', async () => {
    for (const bad of BAD_IDS) {
      const res = await f.as.Admin.get(`/api/dataExport/jobs/${encodeURIComponent(bad)}/download`);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('an id in a query string: the consent link', async () => {
    for (const bad of BAD_IDS) {
      const res = await t.client().get(`/api/consent/fitbit/authorizeUrl?id=${encodeURIComponent(bad)}&t=x`);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().errors).toEqual([{ path: 'id', message: 'Invalid id' }]);
    }
  });

  it('an id in a JSON body: an integer or its decimal text, nothing else', async () => {
    const trialId = (await f.as.Admin.post('/api/userTrials', { trialNumber: 'I1', trialName: 'Ids' })).json()
      .trialId as number;
    for (const bad of [...BAD_IDS, 1.5, -1, 0, true, null]) {
      const res = await f.as.Admin.post('/api/trialParticipants', { trialId: bad, email: 'ids@x.example' });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().errors).toEqual([{ path: 'trialId', message: 'Invalid id' }]);
    }
    const asNumber = await f.as.Admin.post('/api/trialParticipants', { trialId, email: 'n@x.example' });
    expect(asNumber.statusCode, asNumber.body).toBe(200);
    const asText = await f.as.Admin.post('/api/trialParticipants', {
      trialId: String(trialId),
      email: 't@x.example',
    });
    expect(asText.statusCode, asText.body).toBe(200);
  });

  it('a well-formed id still reaches the route', async () => {
    const res = await f.as.Admin.get('/api/trialParticipants/999999');
    expect(res.statusCode).toBe(404);
  });
});
