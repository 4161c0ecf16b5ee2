/*
 * The scope matrix (issue 21 §1), beside the role matrix: generated from the
 * table in scope-table.ts. For each route that names a trial, participant,
 * device link, device, export job, team or user, the actor sends the id of an
 * object it may not reach — (a) another team's, as every role the route's
 * role check lets through; (b) the same team's trial 3 and what hangs off it,
 * as the User and the Viewer, trial users of trials 1 and 2 only — and gets
 * 404 with no row changed (the fuzz test's whole-database hash, without the
 * tables a refusal may write: sessions, the audit trail, limits, lockouts).
 * A list route must not name the object. Exceptions are rows of the table
 * with their reason, and are asserted too.
 *
 * The completeness test walks API_ACCESS: every path parameter that is an id
 * (all but NON_ID_PARAMS) and every body field named like an id (read from
 * the app's OpenAPI document, i.e. the routes' zod body schemas) must have a
 * row, or an entry in NOT_SCOPED saying why not.
 *
 * The objects are built once (support/scope-world.ts); every attempt is a
 * refusal, and every write row has an object of its own where a successful
 * write would change what another row reads, so the cases pass in any order.
 */
import { API_ACCESS, type ApiRoute, STATE_CHANGING_GETS } from '@trialwear/contract';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScopeWorld, databaseSnapshotter, type ScopeWorld } from '../support/scope-world.js';
import { createTestApp, type TestApp, TestClient } from '../support/test-app.js';
import { SCOPE_ROWS, type ScopeActor, type ScopeRow } from './scope-table.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Every value of the key at any depth of a JSON answer. */
const valuesOf = (json: unknown, key: string): unknown[] =>
  Array.isArray(json)
    ? json.flatMap((x) => valuesOf(x, key))
    : json && typeof json === 'object'
      ? Object.entries(json).flatMap(([k, v]) => (k === key ? [v] : valuesOf(v, key)))
      : [];

/** Path parameters that are not ids of anything an actor could be scoped from. */
const NON_ID_PARAMS = new Set(['provider', 'deviceType', 'metricKey', 'email', 'resourcePath', 'query']);
/** Body fields that name an object by id. */
const ID_FIELD = /^(id|ids)$|Ids?$|_id$/;

/** Id carriers without a row, and why. */
const NOT_SCOPED: Record<string, string> = {
  'POST /api/users/signup body.teamId': 'public: the invitation token decides the team, there is no actor',
  'POST /api/fitbit-callback body.participantId': 'public: the signed OAuth state names the participant',
  'POST /api/omron-callback body.participantId': 'public: the signed OAuth state names the participant',
  'POST /api/dexcom-callback body.participantId': 'public: the signed OAuth state names the participant',
  'POST /api/dataStorageService/team/:teamId/device/:deviceType/metric body.device_metric_id':
    "ignored: the catalog id comes from the Sys_Admin's setting (the route's :teamId has rows)",
};

describe('scope matrix: another team’s, or another trial’s, object is 404 and changes nothing', () => {
  let t: TestApp;
  let w: ScopeWorld;
  let owner: pg.Client;
  let snapshot: () => Promise<Record<string, string>>;
  beforeAll(async () => {
    t = await createTestApp();
    w = await buildScopeWorld(t);
    owner = await t.connectAs('owner');
    snapshot = await databaseSnapshotter(owner);
  }, 120_000);
  afterAll(async () => {
    await owner?.end();
    await t?.close();
  });

  /** Path values; `owner` fills the other parameters with the object's own team's objects (the controls). */
  const paramValue = (row: ScopeRow, name: string, owner = false): string => {
    if (row.carrier === `:${name}`) return String(w.foreign[row.object]);
    const also = row.also?.[name];
    if (also) return String(w.foreign[also]);
    const otherTeams = owner && row.object.startsWith('otherTeam.');
    const defaults: Record<string, string | number> = {
      trialId: otherTeams ? w.foreign['otherTeam.trial'] : w.own.trial1,
      participantId: otherTeams ? w.foreign['otherTeam.participant'] : w.own.participant1,
      id: otherTeams ? w.foreign['otherTeam.participant'] : w.own.participant1,
      teamId: otherTeams ? w.foreign['otherTeam.team'] : w.own.team,
      deviceId: otherTeams ? w.foreign['otherTeam.device'] : w.own.device,
      provider: 'fitbit',
      deviceType: 'fitness_tracker',
      metricKey: 'steps',
      email: '-',
      resourcePath: encodeURIComponent('/activities/steps/date/2026-01-01/2026-01-07.json'),
      query: 'egvs',
    };
    if (!(name in defaults)) throw new Error(`${row.route}: no value for :${name}`);
    return String(defaults[name]);
  };

  const send = async (row: ScopeRow, actor: ScopeActor | TestClient) => {
    const [method, template] = row.route.split(' ') as [Method, string];
    const owner = actor instanceof TestClient;
    const url =
      template.replace(/:(\w+)/g, (_, name: string) => paramValue(row, name, owner)) + (row.query ?? '');
    const client = owner ? actor : actor === 'participant' ? w.participant : w.home.as[actor];
    const body = row.body?.({ id: w.foreign[row.object], own: w.own, of: (o) => w.foreign[o] });
    const headers = STATE_CHANGING_GETS.includes(row.route)
      ? { 'x-csrf-token': await client.csrfToken() }
      : undefined;
    return client.request(method, url, method === 'GET' ? undefined : (body ?? {}), { headers });
  };

  const cases = SCOPE_ROWS.flatMap((row) =>
    row.actors.map((actor) => {
      const exception = actor !== 'participant' && row.reachableBy?.[actor] ? ' (reachable by design)' : '';
      // A plain string: `as const` on the template would make TypeScript build the literal type of
      // every route × carrier × object × actor (minutes of type-checking).
      const name: string = `${row.route}${row.query ?? ''} ${row.carrier}=${row.object} as ${actor}${exception}`;
      return [name, row, actor] as const;
    }),
  );

  it.each(cases)('%s', async (_name, row, actor) => {
    const before = await snapshot();
    const res = await send(row, actor);
    const reachable = actor !== 'participant' ? row.reachableBy?.[actor] : undefined;
    if (row.carrier === 'list') {
      expect(res.statusCode, res.body).toBe(200);
      const listed = valuesOf(res.json(), row.listKey ?? 'id');
      expect(listed.length, `the list names no ${row.listKey}: ${res.body}`).toBeGreaterThan(0);
      expect(listed, `${row.object} listed`).not.toContain(w.foreign[row.object]);
    } else if (typeof reachable === 'string') {
      // An explicit exception: the object is reached.
      expect(res.statusCode, `${reachable}: ${res.body}`).toBeLessThan(300);
      return;
    } else if (reachable) {
      // Reached, and answered about the object's own state.
      expect({ status: res.statusCode, message: res.json().message }, reachable.why).toEqual({
        status: reachable.status,
        message: reachable.message,
      });
    } else {
      expect(res.statusCode, res.body).toBe(row.refusal?.status ?? 404);
    }
    expect(await snapshot(), 'rows changed by a refused request').toEqual(before);
  });

  /*
   * Controls, for the reads: the same request by the object's own team (its Admin, or its Sys_Admin on a
   * Sys_Admin route; the home Admin for trial 3's objects) is not 404, so the rows' 404 is the scope's.
   * (Writes have none: a control write would change the objects the other rows use.)
   */
  const controls = SCOPE_ROWS.filter((r) => r.route.startsWith('GET ') && r.carrier !== 'list').map(
    (row) => [`${row.route}${row.query ?? ''} ${row.carrier}=${row.object}`, row] as const,
  );
  it.each(controls)('control: %s — reached by its own team', async (_name, row) => {
    const team = row.object.startsWith('otherTeam.') ? w.other : w.home;
    const access = API_ACCESS[row.route];
    const role =
      row.controlRole ?? (Array.isArray(access) && !access.includes('Admin') ? 'Sys_Admin' : 'Admin');
    const client = team.as[role];
    const res = await send(row, client);
    expect(res.statusCode, res.body).not.toBe(404);
    expect(res.statusCode, res.body).not.toBe(403);
  });

  /*
   * A count names no id, so it has no row: GET /api/studyHealth/alertCount must count exactly the open
   * alerts of the trials the actor lists (never trial 3's for the User and the Viewer, never another team's).
   */
  it.each(['Sys_Admin', 'Admin', 'User', 'Viewer'] as const)(
    'GET /api/studyHealth/alertCount as %s counts the open alerts of its visible trials only',
    async (role) => {
      const client = w.home.as[role];
      const trials = (await client.get('/api/userTrials/')).json() as Array<{ trialId: number }>;
      let listed = 0;
      for (const { trialId } of trials)
        listed += (await client.get(`/api/studyHealth/trials/${trialId}/alerts?status=open`)).json().length;
      const res = await client.get('/api/studyHealth/alertCount');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ open: listed });
      expect(listed).toBeGreaterThan(0);
      const seesTrial3 = trials.some((x) => x.trialId === w.foreign['sameTeam.trial3']);
      expect(seesTrial3).toBe(role === 'Sys_Admin' || role === 'Admin');
    },
  );

  it('every table row names a real route, an actor, and a real parameter or body field', () => {
    for (const row of SCOPE_ROWS) {
      expect(row.actors.length, row.route).toBeGreaterThan(0);
      if (row.carrier.startsWith(':')) expect(row.route, row.carrier).toContain(row.carrier);
      if (row.carrier.startsWith('body.')) expect(idCarriers(row.route), row.route).toContain(row.carrier);
    }
  });

  /** A route's id carriers: its path parameters but NON_ID_PARAMS, and its body fields named like ids. */
  const idCarriers = (route: string): string[] => {
    const [method, path] = route.split(' ') as [Method, string];
    const doc = t.app.swagger() as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: object } }> } }>
      >;
    };
    const op = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
    const fields = Object.keys(op?.requestBody?.content?.['application/json']?.schema?.properties ?? {});
    return [
      ...[...path.matchAll(/:(\w+)/g)]
        .map((m) => m[1]!)
        .filter((p) => !NON_ID_PARAMS.has(p))
        .map((p) => `:${p}`),
      ...fields.filter((f) => ID_FIELD.test(f)).map((f) => `body.${f}`),
    ];
  };

  it('covers every route of API_ACCESS whose path or body names an id (completeness)', () => {
    const covered = new Set(SCOPE_ROWS.map((r) => `${r.route} ${r.carrier}`));
    const carriers = (Object.keys(API_ACCESS) as ApiRoute[]).flatMap((route) =>
      idCarriers(route).map((c) => `${route} ${c}`),
    );
    expect(carriers.length).toBeGreaterThan(50);
    const missing = carriers.filter((c) => !covered.has(c) && !NOT_SCOPED[c]);
    expect(
      missing,
      'id-carrying routes without a scope row (add a row, or to NOT_SCOPED with a reason)',
    ).toEqual([]);
    // No stale exemption either.
    expect(Object.keys(NOT_SCOPED).filter((k) => !carriers.includes(k))).toEqual([]);
  });
});
