/*
 * GET /api/trialParticipants/{trialId}?page=&pageSize=&filter=&sort=&order=
 * (issue #24 item 5, decision 040): the trial page's table paged, filtered
 * and sorted by the server. Each window is checked against the whole list
 * filtered and sorted here as the table did it in the browser (a cell's
 * text, case-insensitive substring; digits by value; ties by id), so the
 * user sees the same rows as before, one page at a time.
 */
import {
  type ListedParticipant,
  PROVIDER_BRAND,
  providerOfLink,
  SYNC_STATUS_TEXT,
  TRIAL_MESSAGES,
} from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScope } from '../../src/access/system.js';
import { insertParticipants } from '../../src/features/participants/repo.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const N = 130;
const GENDERS = ['None', 'female', 'male', 'other'] as const;

/** The cells' texts as the web's participant columns give them (participant-columns.tsx). */
const cells = (p: ListedParticipant) => ({
  id: p.id,
  participant_code: p.participant_code ?? '',
  email: p.email ?? '',
  gender: p.gender,
  age: p.age,
  notes: p.notes ?? '',
  authorized_devices: p.authorized_devices.map((d) => PROVIDER_BRAND[providerOfLink(d)!]).join(', '),
  sync: SYNC_STATUS_TEXT[p.sync.status],
});
type Column = Exclude<keyof ReturnType<typeof cells>, 'notes'>;

/** Case-insensitive, runs of digits by value (the table's alphanumeric sort). */
function natural(a: string, b: string) {
  const chunks = (s: string) => s.toLowerCase().match(/\d+|\D+/g) ?? [];
  const [x, y] = [chunks(a), chunks(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [p, q] = [x[i]!, y[i]!];
    if (/^\d/.test(p) && /^\d/.test(q)) {
      if (Number(p) !== Number(q)) return Number(p) - Number(q);
    } else if (p !== q) return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

/** The whole list filtered and sorted as the table did it in the browser. */
function expected(all: ListedParticipant[], filter: string, sort: Column, desc: boolean) {
  const f = filter.toLowerCase();
  const rows = all.filter((p) =>
    Object.values(cells(p)).some((v) => v !== null && String(v).toLowerCase().includes(f)),
  );
  const key = (p: ListedParticipant) => cells(p)[sort];
  return rows.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    let c: number;
    if (x === null || y === null) return x === y ? a.id - b.id : x === null ? 1 : -1; // no age: last either way
    if (typeof x === 'number' && typeof y === 'number') c = x - y;
    else c = natural(String(x), String(y));
    return (desc ? -c : c) || a.id - b.id;
  });
}

describe('the participant list, paged, filtered and sorted by the server', () => {
  let t: TestApp;
  let open: TeamFixture;
  let hiding: TeamFixture;
  let trialId: number;
  let hidingTrialId: number;
  let all: ListedParticipant[];

  const get = (team: TeamFixture, trial: number, query: string) =>
    team.as.Admin.get(`/api/trialParticipants/${trial}?${query}`);

  beforeAll(async () => {
    t = await createTestApp();
    open = await teamWithRoles(t, 'Window Open', { hiddenFields: [] });
    hiding = await teamWithRoles(t, 'Window Hiding', { hiddenFields: ['email', 'notes'] });
    trialId = (await open.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Window' })).json()
      .trialId;
    await insertParticipants(
      t.ctx.db,
      systemScope.trial('fixture', open.teamId, trialId),
      Array.from({ length: N }, (_, i) => ({
        // Mixed case and digits of every length, so that the sort's case and number rules show.
        email: i % 3 === 0 ? `Zed${i}@x.example` : `p${i}@x.example`,
        gender: GENDERS[i % 4]!,
        age: i % 9 === 0 ? null : 20 + ((i * 7) % 50),
        notes:
          i === 17 ? 'completed 100% of visits' : i === 18 ? 'snake_case note' : i % 5 ? 'some notes' : null,
        suffix: i % 10 === 0 ? null : String(i),
        code: i % 10 === 0 ? null : `W1-${i}`,
      })),
    );
    // Device links: Fitbit (authorized, never synced), Omron (authorized), Dexcom (errored).
    const ids = (
      await t.ctx.db
        .selectFrom('participants')
        .select('id')
        .where('trial_id', '=', trialId)
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
    const links = ids.flatMap((id, i) => [
      ...(i % 7 === 0
        ? [{ id, provider: i % 14 === 0 ? 'google_health' : 'fitbit', status: 'authorized' }]
        : []),
      ...(i % 11 === 0 ? [{ id, provider: 'omron', status: 'authorized' }] : []),
      ...(i % 13 === 0 ? [{ id, provider: 'dexcom', status: 'error' }] : []),
    ]);
    await t.ctx.db
      .insertInto('participant_devices')
      .values(
        links.map((l) => ({
          participant_id: l.id,
          team_id: open.teamId,
          provider: l.provider,
          authorization_status: l.status,
        })) as never,
      )
      .execute();
    all = (await open.as.Admin.get(`/api/trialParticipants/${trialId}`)).json().participants;
    expect(all).toHaveLength(N);

    hidingTrialId = (
      await hiding.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Hiding' })
    ).json().trialId;
    await insertParticipants(
      t.ctx.db,
      systemScope.trial('fixture', hiding.teamId, hidingTrialId),
      Array.from({ length: 12 }, (_, i) => ({
        email: `${String.fromCharCode(122 - i)}-secret@x.example`, // z-, y-, x-…: reverse of id order
        gender: 'None' as const,
        age: 30,
        notes: 'secret notes',
        suffix: String(i),
        code: `H1-${i}`,
      })),
    );
  });
  afterAll(() => t.close());

  it('pages through the trial by id, with the total, the default page 1 and 50 a page', async () => {
    const res = await get(open, trialId, 'page=2&pageSize=50');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['hiddenFields', 'page', 'pageSize', 'participants', 'total']);
    expect(body).toMatchObject({ page: 2, pageSize: 50, total: N });
    expect(body.participants).toEqual(all.slice(50, 100));
    expect((await get(open, trialId, 'page=3&pageSize=50')).json().participants).toEqual(all.slice(100));
    // Past the end: no rows, the total still there (the table goes back to its first page).
    const past = (await get(open, trialId, 'page=9&pageSize=50')).json();
    expect(past).toMatchObject({ participants: [], total: N });
  });

  it.each([
    ['id', true],
    ['participant_code', false],
    ['participant_code', true],
    ['email', false],
    ['email', true],
    ['gender', false],
    ['age', false],
    ['age', true],
    ['authorized_devices', false],
    ['authorized_devices', true],
    ['sync', false],
    ['sync', true],
  ] as const)('sorts by %s (descending: %s) as the table did, ties by id', async (sort, desc) => {
    const want = expected(all, '', sort, desc).map((p) => p.id);
    const got: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = (
        await get(open, trialId, `page=${page}&pageSize=50&sort=${sort}&order=${desc ? 'desc' : 'asc'}`)
      ).json();
      expect(body.total).toBe(N);
      got.push(...body.participants.map((p: ListedParticipant) => p.id));
    }
    expect(got).toEqual(want);
  });

  it.each([
    ['zed', 'email, any case'],
    ['W1-1', 'code'],
    ['male', 'gender (female too, as a substring)'],
    ['4', 'id, age, code and email digits'],
    ['fitbit', 'a device brand (a Google Health link too)'],
    ['omron', 'a device brand'],
    ['sync error', 'the sync status text'],
    ['not synced', 'the sync status text'],
    ['100%', 'a literal %'],
    ['e_c', 'a literal _'],
    ['nobody-has-this', 'nothing'],
  ])('filters on %s (%s), with the matching total', async (filter, _what) => {
    const want = expected(all, filter, 'id', false);
    const body = (await get(open, trialId, `page=1&pageSize=10&filter=${encodeURIComponent(filter)}`)).json();
    expect(body.total).toBe(want.length);
    expect(body.participants).toEqual(want.slice(0, 10));
  });

  it('filters, sorts and pages at once; without a page the whole matching list (the export)', async () => {
    const want = expected(all, 'notes', 'age', true);
    expect(want.length).toBeGreaterThan(30);
    const body = (await get(open, trialId, 'page=2&pageSize=20&filter=NOTES&sort=age&order=desc')).json();
    expect(body.total).toBe(want.length);
    expect(body.participants).toEqual(want.slice(20, 40));
    const whole = (await get(open, trialId, 'filter=NOTES&sort=age&order=desc')).json();
    expect(Object.keys(whole).sort()).toEqual(['hiddenFields', 'participants']);
    expect(whole.participants).toEqual(want);
  });

  it('neither matches nor orders by a field the team hides', async () => {
    const plain = (await get(hiding, hidingTrialId, 'page=1&pageSize=50')).json();
    expect(plain.hiddenFields).toEqual(['email', 'notes']);
    expect(plain.participants[0]).not.toHaveProperty('email');
    expect(plain.participants[0]).not.toHaveProperty('notes');
    for (const filter of ['secret', 'z-']) {
      const body = (await get(hiding, hidingTrialId, `page=1&pageSize=50&filter=${filter}`)).json();
      expect(body, filter).toMatchObject({ participants: [], total: 0 });
    }
    // By email it would be the reverse of id order: it stays in id order.
    const byEmail = (await get(hiding, hidingTrialId, 'page=1&pageSize=50&sort=email')).json();
    expect(byEmail.participants).toEqual(plain.participants);
  });

  it('refuses bad paging, filter and sort values', async () => {
    // A control character (the separator of the cells' text in the query) is refused before the schema.
    for (const bad of [
      'filter=a%01b',
      'sort=notes',
      'sort=trialId',
      'order=up',
      `filter=${'x'.repeat(1000)}`,
      'pageSize=501',
    ]) {
      const res = await get(open, trialId, bad);
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it('keeps the scope: a trial the caller does not see is the same 404 with any window', async () => {
    const query = 'page=1&pageSize=10&filter=a&sort=sync&order=desc';
    // The Viewer is no trial user of this trial; the other team's Admin is a stranger.
    for (const res of [
      await open.as.Viewer.get(`/api/trialParticipants/${trialId}?${query}`),
      await hiding.as.Admin.get(`/api/trialParticipants/${trialId}?${query}`),
      await hiding.as.Admin.get(`/api/trialParticipants/999999?${query}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(TRIAL_MESSAGES.notFound);
    }
    // Once a trial user, the Viewer gets the page.
    await open.as.Admin.post('/api/trialUsers', {
      trialId,
      userEmail: (
        await t.ctx.db
          .selectFrom('users')
          .select('email')
          .where('id', '=', open.userIds.Viewer)
          .executeTakeFirstOrThrow()
      ).email,
    });
    const seen = await open.as.Viewer.get(`/api/trialParticipants/${trialId}?${query}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().total).toBe(expected(all, 'a', 'sync', true).length);
  });
});
