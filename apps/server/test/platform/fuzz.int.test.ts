/*
 * Property-based fuzz over every /api route of the contract's API_ACCESS
 * table (issue #9): as a signed-in Sys_Admin and anonymously, always with a
 * valid CSRF header, each route gets bad bodies (wrong types, huge, negative
 * and NaN-like numbers, NUL and other control characters, very long strings,
 * nested objects and arrays, deep nesting, invalid JSON), bad path
 * parameters and bad query strings. The bar: no 5xx, ever; and a request
 * answered 4xx changes no row (every table's content is hashed after each
 * request, except the sessions and the audit trail, which refusals may
 * legitimately write, and the users' failure counters).
 *
 * Field names come from the app's own OpenAPI document, so generated bodies
 * look enough like real ones (valid ids, emails, passwords mixed in) to get
 * past the schema into the services now and then. Seeded: FUZZ_SEED and
 * FUZZ_RUNS (runs per route and identity) override the defaults.
 */
import { API_ACCESS, type ApiRoute, CSRF_COOKIE, CSRF_HEADER } from '@trialwear/contract';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startSession } from '../../src/features/auth/session.js';
import { settleAfterResponse } from '../../src/mail/after-response.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SEED = Number(process.env.FUZZ_SEED ?? 9);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
/** Each route and identity its own seed (from SEED), so they do not all get the same sequence of shapes. */
const seedOf = (label: string) => [...label].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, SEED);

/** Tables a refused request may still write, and columns it may change. */
// Wrong passwords or codes count towards the lockout (login_lockouts) and may lock the account (by design).
const MAY_CHANGE_ON_REFUSAL = new Set(['sessions', 'audit_log', 'audit_chain_head', 'login_lockouts']);
const IGNORED_COLUMNS: Record<string, string[]> = {
  users: ['updated_at', 'token_version'],
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Identity = 'Sys_Admin' | 'anonymous';

interface FuzzRequest {
  path: string;
  query: string;
  /** Raw payload (JSON or deliberately not), or undefined for none. */
  payload: string | undefined;
  contentType: string | undefined;
}

interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

const routes = Object.keys(API_ACCESS) as ApiRoute[];

/** encodeURIComponent, with lone surrogates (which it refuses) sent as the invalid UTF-8 they would be. */
const encode = (s: string) =>
  s
    .split(/([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/)
    .map((part) => {
      try {
        return encodeURIComponent(part);
      } catch {
        return '%ED%A0%80';
      }
    })
    .join('');

describe('fuzz: every /api route, no 5xx and no change on refusal', () => {
  let t: TestApp;
  let f: TeamFixture;
  let owner: pg.Client;
  let snapshotSql: string;
  let csrf: string;
  let sysAdminId: number;
  let lastSnapshot: string;
  const ids: Record<string, number> = {};
  const stats = new Map<string, Record<string, number>>();
  let requests = 0;
  let serverErrors = 0;
  const started = performance.now();
  let ipSeq = 0;

  const snapshot = async () => {
    const { rows } = await owner.query<{ t: string; n: number; h: string }>(snapshotSql);
    return JSON.stringify(rows);
  };

  const exists = async (table: 'trials' | 'participants', id: number | undefined) =>
    !!(await t.ctx.db
      .selectFrom(table)
      .select('id')
      .where('id', '=', id ?? 0)
      .executeTakeFirst());

  /** The trial and participant the plausible ids point at; the fuzz may delete them, so they come back. */
  const ensureFixtures = async () => {
    if (!(await exists('trials', ids.trialId))) {
      const res = await f.as.Admin.post('/api/userTrials', {
        trialNumber: `F${Date.now()}${Math.random()}`.slice(0, 40),
        trialName: 'Fuzz',
      });
      ids.trialId = res.json().trialId;
    }
    if (!(await exists('participants', ids.participantId))) {
      const res = await f.as.Admin.post('/api/trialParticipants', {
        trialId: ids.trialId,
        email: `fuzz-${Date.now()}-${Math.random()}@x.example`,
      });
      ids.participantId = res.json().participantId;
    }
  };

  beforeAll(async () => {
    // With the job queue, as the server runs: /api/health answers 503 without it (rightly).
    t = await createTestApp({ withQueue: true });
    f = await teamWithRoles(t, 'Fuzz Team', { hiddenFields: [] });
    sysAdminId = f.userIds.Sys_Admin;
    ids.teamId = f.teamId;
    ids.userId = sysAdminId;
    await ensureFixtures();
    owner = await t.connectAs('owner');
    const { rows } = await owner.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    snapshotSql = rows
      .filter((r) => !MAY_CHANGE_ON_REFUSAL.has(r.table_name))
      .map(({ table_name: name }) => {
        const ignored = (IGNORED_COLUMNS[name] ?? []).map((c) => `'${c}'`).join(', ');
        const row = ignored ? `(to_jsonb(x) - ARRAY[${ignored}]::text[])` : 'to_jsonb(x)';
        return `SELECT '${name}' AS t, count(*)::int AS n, coalesce(sum(hashtext(${row}::text)::bigint), 0)::text AS h FROM "${name}" x`;
      })
      .join(' UNION ALL ');
    csrf = (await t.client().get('/api/csrf-token')).json().csrfToken;
  });

  afterAll(async () => {
    const seconds = (performance.now() - started) / 1000;
    const lines = [...stats].map(([route, s]) => `  ${route.padEnd(72)} ${JSON.stringify(s)}`);
    console.log(
      [
        `fuzz: ${stats.size} route×identity pairs (${routes.length} routes × 2) × ${RUNS} runs = ${requests} requests, seed ${SEED}`,
        `fuzz: ${serverErrors} answers 5xx, ${seconds.toFixed(1)} s`,
        ...lines,
      ].join('\n'),
    );
    await owner?.end();
    await t?.close();
  });

  /* ---------- generators ---------- */

  // NUL first: PostgreSQL refuses it in text, the other control characters it stores.
  const control = fc.oneof(
    { weight: 4, arbitrary: fc.constant('\u0000') },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '\u0001',
        '\u0007',
        '\b',
        '\t',
        '\n',
        '\r',
        '\u001b',
        '\u001f',
        '\u007f',
        '\u0085',
        '\u009f',
      ),
    },
  );
  const oddChar = fc.constantFrom(
    'a',
    'Z',
    '0',
    '_',
    '@',
    '.',
    '-',
    ' ',
    '/',
    '%',
    '"',
    "'",
    '\\',
    'é',
    '😀',
    '\ud800',
    '\u202e',
  );
  const nastyString = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.array(fc.oneof(control, oddChar), { maxLength: 24 }).map((cs) => cs.join('')),
    fc.constantFrom(
      '',
      ' ',
      'NaN',
      'Infinity',
      '-Infinity',
      '-0',
      '1e309',
      '0x10',
      '1.5',
      '-1',
      '0',
      '2147483647',
      '2147483648',
      '9007199254740993',
      '99999999999999999999999',
      ' 1',
      'null',
      'true',
      '[]',
      '{}',
      '__proto__',
      '%00',
      '../../etc/passwd',
      "' OR 1=1 --",
      '<script>alert(1)</script>',
      'fitbit',
      'Admin',
    ),
    fc.constantFrom(51, 301, 5_000, 70_000).map((n) => 'x'.repeat(n)),
  );
  const nastyNumber = fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(
      0,
      -1,
      0.5,
      -0,
      2 ** 31 - 1,
      2 ** 31,
      -(2 ** 31) - 1,
      2 ** 53,
      1e308,
      -1e308,
      32768,
      1000,
    ),
  );
  const leaf = fc.oneof(nastyString, nastyNumber, fc.boolean(), fc.constant(null));
  const key = (known: string[]) =>
    fc.oneof(
      { weight: 3, arbitrary: known.length ? fc.constantFrom(...known) : fc.constant('id') },
      {
        weight: 1,
        arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', '', 'a.b', 'x\u0000'),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
    );
  const nested = (known: string[]) =>
    fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(key(known), tie('node'), { maxKeys: 4 }),
      ),
    })).node;

  /**
   * A value that passes the field's schema, by the field's name: real ids, fresh emails, usernames and
   * trial numbers (so that a request is not refused as a duplicate before it reaches the database),
   * a valid password (the same one for every password field, so confirmations match), short text.
   */
  const plausible = (field: string): fc.Arbitrary<unknown> => {
    const fresh = (make: (n: number) => string) => fc.nat().map(make);
    if (field === 'trialId') return fc.constantFrom(ids.trialId, ids.trialId, 999_999);
    if (field === 'id') return fc.constantFrom(ids.participantId, ids.participantId, 999_999);
    if (field === 'teamId') return fc.constantFrom(f.teamId, f.teamId, 999_999);
    if (field === 'userId') return fc.constantFrom(f.userIds.User, sysAdminId, 999_999);
    // The consent callbacks' signed state.
    if (field === 'participantId' || field === 'participantData')
      return fresh((n) => `${ids.participantId}.n${n}.mac`);
    if (/email/i.test(field)) return fresh((n) => `fuzz${n}@x.example`);
    if (/username/i.test(field)) return fresh((n) => `fuzz.user${n}`);
    if (/password/i.test(field)) return fc.constant('Fuzz-pw1!');
    if (field === 'trialNumber') return fresh((n) => `FZ-${n}`);
    if (/suffix/i.test(field))
      return fc.oneof(
        fresh((n) => String(n % 1_000_000)),
        fc.constant(null),
      );
    if (field === 'gender') return fc.constantFrom('female', 'male', 'None', 'other');
    if (field === 'age') return fc.constantFrom(30, '30', 99, null);
    if (field === 'role') return fc.constantFrom('User', 'Admin', 'Viewer');
    if (/^accept/.test(field)) return fc.constant(true);
    if (field === 'skipSFA') return fc.boolean();
    if (field === 'sfaToken') return fresh((n) => String(n % 1_000_000).padStart(6, '0'));
    if (/recaptcha/i.test(field)) return fc.constant('');
    if (/token|code/i.test(field)) return fresh((n) => `tok${n}`);
    if (/notes|message/i.test(field))
      return fc.constantFrom('A few words.\nOn two lines.', 'Hello there, a message of some length.');
    return fc.constantFrom('Fuzz', 'Trial name', 'Access question');
  };

  /** A bad value for a field: anything nasty, or its plausible value with a control character, or a huge number. */
  const nasty = (field: string, fields: string[]): fc.Arbitrary<unknown> =>
    fc.oneof(
      { weight: 2, arbitrary: leaf },
      { weight: 1, arbitrary: nested(fields) },
      {
        weight: 2,
        arbitrary: fc.tuple(plausible(field), control, fc.nat()).map(([v, c, at]) => {
          const text = String(v ?? 'x');
          const i = at % (text.length + 1);
          return `${text.slice(0, i)}${c}${text.slice(i)}`;
        }),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e308, -1, 0, 1.5, 'NaN', '1e309'),
      },
    );

  const jsonBody = (fields: string[]) =>
    fc.oneof(
      // The route's own fields, each plausible or (one in four) bad: valid requests now and then,
      // and bad values that get past the other fields' checks into the service and the database.
      {
        weight: 6,
        arbitrary: fc.record(
          Object.fromEntries(
            fields.map((name) => [
              name,
              fc.oneof(
                { weight: 4, arbitrary: plausible(name) },
                { weight: 1, arbitrary: nasty(name, fields) },
              ),
            ]),
          ),
        ),
      },
      // Some fields missing, some bad.
      {
        weight: 1,
        arbitrary: fc.record(Object.fromEntries(fields.map((name) => [name, nasty(name, fields)])), {
          requiredKeys: [],
        }),
      },
      // Anything at all (arrays, strings, numbers, null, objects with odd keys).
      { weight: 1, arbitrary: nested(fields) },
    );

  const rawBody = fc.oneof(
    fc.constantFrom(
      '{',
      '{"a":',
      'null',
      '""',
      '[]',
      '{"trialId": 1e400, "id": -1e400}',
      '{"id": 123456789012345678901234567890}',
      '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}',
      '\u0000',
      '{"a":"\\u0000"}',
      '{"a":"\\ud800"}',
    ),
    fc.integer({ min: 50, max: 20_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
    fc.integer({ min: 50, max: 5_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
    fc.constant(`{"a":"${'y'.repeat(1_100_000)}"}`), // over the 1 MB body limit
  );

  const pathSegment = fc.oneof(
    fc.constantFrom(
      '0',
      '-1',
      '2147483647',
      '2147483648',
      '99999999999999999999',
      '1e3',
      'NaN',
      'abc',
      '1.5',
      '%20',
      '%00',
      '%ff',
      '%',
      '%ED%A0%80',
      '%0a',
      '%C3%A9',
      '%25',
      '..',
      'fitbit',
      'omron',
      'dexcom',
    ),
    fc.string({ maxLength: 12 }).map(encode),
    fc.array(fc.oneof(control, oddChar), { maxLength: 8 }).map((cs) => encode(cs.join(''))),
  );

  const queryString = (known: string[]) =>
    fc
      .tuple(
        // The route's own parameters, plausible or bad (e.g. the consent link's id and t) …
        fc.record(
          Object.fromEntries(
            known.map((name) => [
              name,
              fc.oneof(
                {
                  weight: 3,
                  arbitrary: (name === 'id' ? fc.constant(ids.participantId) : plausible(name)).map(String),
                },
                { weight: 1, arbitrary: fc.oneof(nastyString, nastyNumber.map(String)) },
              ),
            ]),
          ),
          { requiredKeys: [] },
        ),
        // … and others, repeated ones included.
        fc.array(
          fc.tuple(
            key([...known, 'page', 'pageSize', 'id', 't']),
            fc.oneof(nastyString, nastyNumber.map(String)),
          ),
          {
            maxLength: 3,
          },
        ),
      )
      .map(([own, extra]) => {
        const pairs = [...Object.entries(own), ...extra] as Array<[string, string]>;
        return pairs.length ? `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}` : '';
      });

  const requestFor = (route: ApiRoute, op: OpenApiOperation | undefined): fc.Arbitrary<FuzzRequest> => {
    const [method, template] = route.split(' ') as [Method, string];
    const params = [...template.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const queryNames = (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    const fields = Object.keys(op?.requestBody?.content?.['application/json']?.schema?.properties ?? {});
    const paramArbs = params.map((name) =>
      fc.oneof(
        {
          weight: 1,
          arbitrary:
            name === 'provider'
              ? fc.constantFrom('fitbit', 'omron', 'dexcom')
              : name === 'participantId'
                ? fc.constantFrom(String(ids.participantId), '999999')
                : plausible(name).map(String),
        },
        { weight: 1, arbitrary: pathSegment },
      ),
    );
    const body: fc.Arbitrary<{ payload: string | undefined; contentType: string | undefined }> =
      method === 'GET'
        ? fc.constant({ payload: undefined, contentType: undefined })
        : fc.oneof(
            {
              weight: 6,
              arbitrary: jsonBody(fields).map((b) => ({
                payload: JSON.stringify(b) ?? 'null',
                contentType: 'application/json',
              })),
            },
            {
              weight: 2,
              arbitrary: rawBody.map((payload) => ({ payload, contentType: 'application/json' })),
            },
            {
              weight: 1,
              arbitrary: fc
                .tuple(
                  fc.constantFrom(
                    'text/plain',
                    'application/x-www-form-urlencoded',
                    'application/xml',
                    undefined,
                  ),
                  nastyString,
                )
                .map(([contentType, payload]) => ({ payload, contentType })),
            },
          );
    return fc
      .record({
        path: fc.tuple(...(paramArbs.length ? paramArbs : [fc.constant('')])).map((values) => {
          let i = 0;
          return template.replace(/:(\w+)/g, () => values[i++]!);
        }),
        query: queryString(queryNames),
        body,
      })
      .map(({ path, query, body }) => ({ path, query, ...body }));
  };

  /* ---------- the property ---------- */

  const send = async (route: ApiRoute, identity: Identity, req: FuzzRequest) => {
    const [method] = route.split(' ') as [Method];
    const cookies = [`${CSRF_COOKIE}=${csrf}`];
    if (identity === 'Sys_Admin') {
      // A fresh session each time: the fuzz may log out, switch team or end sessions.
      const user = await t.ctx.db
        .selectFrom('users')
        .select('token_version')
        .where('id', '=', sysAdminId)
        .executeTakeFirstOrThrow();
      const token = await startSession(
        t.ctx,
        { ip: '127.0.0.1', userAgent: 'fuzz' },
        {
          userId: sysAdminId,
          teamId: f.teamId,
          status: 'Authorized',
          tokenVersion: user.token_version,
        },
      );
      cookies.push(`tw_session=${token}`);
    }
    ipSeq += 1;
    const headers: Record<string, string> = { cookie: cookies.join('; '), [CSRF_HEADER]: csrf };
    if (req.contentType) headers['content-type'] = req.contentType;
    return t.app.inject({
      method,
      url: `${req.path}${req.query}`,
      headers,
      // Each request from its own address: per-address rate limits would otherwise answer 429 to most runs.
      remoteAddress: `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`,
      ...(req.payload === undefined ? {} : { payload: req.payload }),
    });
  };

  it.each(routes)(
    '%s',
    async (route) => {
      const [method, template] = route.split(' ') as [Method, string];
      const doc = t.app.swagger() as { paths: Record<string, Record<string, OpenApiOperation>> };
      const op = doc.paths[template.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      for (const identity of ['Sys_Admin', 'anonymous'] as const) {
        const tally: Record<string, number> = {};
        stats.set(`${route} as ${identity}`, tally);
        await ensureFixtures();
        await settleAfterResponse();
        lastSnapshot = await snapshot();
        await fc.assert(
          fc.asyncProperty(requestFor(route, op), async (req) => {
            const res = await send(route, identity, req);
            requests += 1;
            tally[res.statusCode] = (tally[res.statusCode] ?? 0) + 1;
            const shown = `${method} ${req.path}${req.query} ${req.contentType ?? ''} ${String(req.payload).slice(0, 300)}`;
            if (res.statusCode >= 500) {
              serverErrors += 1;
              throw new Error(`${res.statusCode} for ${shown}\n${res.body.slice(0, 500)}`);
            }
            // Work an earlier accepted request does after its answer (e.g. a participant sign-up) is not this one's.
            await settleAfterResponse();
            const now = await snapshot();
            if (res.statusCode >= 400 && now !== lastSnapshot) {
              const before = JSON.parse(lastSnapshot) as Array<{ t: string; n: number; h: string }>;
              const changed = (JSON.parse(now) as typeof before).filter(
                (r, i) => r.h !== before[i]?.h || r.n !== before[i]?.n,
              );
              throw new Error(`${res.statusCode} changed ${changed.map((c) => c.t).join(', ')} for ${shown}`);
            }
            lastSnapshot = now;
          }),
          { numRuns: RUNS, seed: seedOf(`${route} as ${identity}`), endOnFailure: true },
        );
      }
    },
    180_000,
  );
});
