/*
 * The bad requests of the fuzz test (platform/fuzz.int.test.ts), as
 * fast-check arbitraries: for a route and its OpenAPI operation, a path with
 * good or bad parameters, a bad query string and a body that mixes plausible
 * field values (real ids, fresh emails and usernames, a valid password) with
 * nasty ones (wrong types, huge and NaN-like numbers, NUL and other control
 * characters, long strings, nesting, invalid JSON). Plausible values let a
 * request reach the services and the database now and then.
 */
import type { ApiRoute } from '@trialwear/contract';
import fc from 'fast-check';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface FuzzRequest {
  path: string;
  query: string;
  /** Raw payload (JSON or deliberately not), or undefined for none. */
  payload: string | undefined;
  contentType: string | undefined;
}

export interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

/** The real records plausible ids point at; read when a route's arbitrary is built (they may be recreated). */
export interface FuzzTargets {
  readonly trialId: number;
  readonly participantId: number;
  readonly teamId: number;
  readonly userId: number;
  readonly sysAdminId: number;
}

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

export function fuzzRequests(targets: FuzzTargets) {
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
    if (field === 'trialId') return fc.constantFrom(targets.trialId, targets.trialId, 999_999);
    if (field === 'id') return fc.constantFrom(targets.participantId, targets.participantId, 999_999);
    if (field === 'teamId') return fc.constantFrom(targets.teamId, targets.teamId, 999_999);
    if (field === 'userId') return fc.constantFrom(targets.userId, targets.sysAdminId, 999_999);
    // The consent callbacks' signed state.
    if (field === 'participantId' || field === 'participantData')
      return fresh((n) => `${targets.participantId}.n${n}.mac`);
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
                  arbitrary: (name === 'id' ? fc.constant(targets.participantId) : plausible(name)).map(
                    String,
                  ),
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
                ? fc.constantFrom(String(targets.participantId), '999999')
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

  return { requestFor };
}
