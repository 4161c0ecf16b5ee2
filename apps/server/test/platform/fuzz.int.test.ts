/*
 * Property-based fuzz over every /api route of the contract's API_ACCESS
 * table (issue #9): as a signed-in Sys_Admin and anonymously, always with a
 * valid CSRF header, each route gets bad bodies (wrong types, huge, negative
 * and NaN-like numbers, NUL and other control characters, very long strings,
 * nested objects and arrays, deep nesting, invalid JSON), bad path
 * parameters and bad query strings. The bar: no 5xx, ever; and a request
 * answered 4xx changes no row of any table except the sessions, the audit
 * trail and the sign-in failure counters, which refusals may legitimately
 * write. How: a statement trigger on every other table notes each committed
 * write in fuzz_writes (this test's own database); after a request, when
 * nothing was noted since the last hash, nothing changed; otherwise every
 * such table's content is hashed again, and after a refusal the hash must
 * equal the last one. (Hashing after every request, as before, cost more
 * than half of the run: most requests write nothing.) The requests
 * themselves come from support/fuzz-requests.ts.
 *
 * Field names come from the app's own OpenAPI document, so generated bodies
 * look enough like real ones (valid ids, emails, passwords mixed in) to get
 * past the schema into the services now and then. Seeded: FUZZ_SEED
 * (default 9) and FUZZ_RUNS (runs per route and identity, default 10) override
 * the defaults; for a deep run (as before the default was cut):
 *   FUZZ_RUNS=30 npx vitest run --project integration apps/server/test/platform/fuzz.int.test.ts
 */
import { API_ACCESS, type ApiRoute, CSRF_COOKIE, CSRF_HEADER } from '@trialwear/contract';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startSession } from '../../src/features/auth/session.js';
import { settleAfterResponse } from '../../src/mail/after-response.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import {
  type FuzzRequest,
  type FuzzTargets,
  fuzzRequests,
  type OpenApiOperation,
} from '../support/fuzz-requests.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SEED = Number(process.env.FUZZ_SEED ?? 9);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
/** Each route and identity its own seed (from SEED), so they do not all get the same sequence of shapes. */
const seedOf = (label: string) => [...label].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, SEED);

/** Tables a refused request may still write, and columns it may change. */
// Wrong passwords or codes count towards the lockout (login_lockouts) and may lock the account (by design).
// Every attempt on a limited route counts towards its per-address and per-account limits, refused
// or not (rate_limit_hits, shared by every server): that is what a limit is for.
const MAY_CHANGE_ON_REFUSAL = new Set([
  'sessions',
  'audit_log',
  'audit_chain_head',
  'login_lockouts',
  'rate_limit_hits',
]);
const IGNORED_COLUMNS: Record<string, string[]> = {
  users: ['updated_at', 'token_version'],
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type TableHash = { t: string; n: number; h: string };
type Snapshot = { writes: number; tables: TableHash[] };
type Identity = 'Sys_Admin' | 'anonymous';

const routes = Object.keys(API_ACCESS) as ApiRoute[];

describe('fuzz: every /api route, no 5xx and no change on refusal', () => {
  let t: TestApp;
  let f: TeamFixture;
  let owner: pg.Client;
  let snapshotSql: string;
  let csrf: string;
  let sysAdminId: number;
  /** The last hash of every table a refusal must not change, and how many writes had been noted then. */
  let lastSnapshot: Snapshot;
  const ids: Record<string, number> = {};
  const targets: FuzzTargets = {
    get trialId() {
      return ids.trialId!;
    },
    get participantId() {
      return ids.participantId!;
    },
    get teamId() {
      return f.teamId;
    },
    get userId() {
      return f.userIds.User;
    },
    get sysAdminId() {
      return sysAdminId;
    },
  };
  const { requestFor } = fuzzRequests(targets);
  const stats = new Map<string, Record<string, number>>();
  let requests = 0;
  let hashes = 0;
  let serverErrors = 0;
  const started = performance.now();
  let ipSeq = 0;

  /** The writes noted and the hashes in one statement, so both come from the same database snapshot. */
  const snapshot = async (): Promise<Snapshot> => {
    hashes += 1;
    const { rows } = await owner.query<TableHash>(snapshotSql);
    const [noted, ...tables] = rows;
    return { writes: noted!.n, tables };
  };
  const writesNoted = async () =>
    (await owner.query<{ n: number }>('SELECT count(*)::int AS n FROM fuzz_writes')).rows[0]!.n;

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
    const watched = rows.map((r) => r.table_name).filter((name) => !MAY_CHANGE_ON_REFUSAL.has(name));
    // Every statement that writes a watched table notes it (rolled back with it, if it is).
    await owner.query(`
      CREATE TABLE fuzz_writes (id bigint GENERATED ALWAYS AS IDENTITY);
      CREATE FUNCTION fuzz_note_write() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
        SET search_path = public AS $$ BEGIN INSERT INTO fuzz_writes DEFAULT VALUES; RETURN NULL; END $$;
      ${watched
        .map(
          (name) => `CREATE TRIGGER fuzz_note_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "${name}"
            FOR EACH STATEMENT EXECUTE FUNCTION fuzz_note_write();`,
        )
        .join('\n')}
    `);
    snapshotSql = [
      `SELECT 'fuzz_writes' AS t, count(*)::int AS n, '' AS h FROM fuzz_writes`,
      ...watched.map((name) => {
        const ignored = (IGNORED_COLUMNS[name] ?? []).map((c) => `'${c}'`).join(', ');
        const row = ignored ? `(to_jsonb(x) - ARRAY[${ignored}]::text[])` : 'to_jsonb(x)';
        return `SELECT '${name}' AS t, count(*)::int AS n, coalesce(sum(hashtext(${row}::text)::bigint), 0)::text AS h FROM "${name}" x`;
      }),
    ].join(' UNION ALL ');
    csrf = (await t.client().get('/api/csrf-token')).json().csrfToken;
  });

  afterAll(async () => {
    const seconds = (performance.now() - started) / 1000;
    const lines = [...stats].map(([route, s]) => `  ${route.padEnd(72)} ${JSON.stringify(s)}`);
    console.log(
      [
        `fuzz: ${stats.size} route×identity pairs (${routes.length} routes × 2) × ${RUNS} runs = ${requests} requests, seed ${SEED}`,
        `fuzz: ${serverErrors} answers 5xx, ${hashes} whole-database hashes, ${seconds.toFixed(1)} s`,
        ...lines,
      ].join('\n'),
    );
    await owner?.end();
    await t?.close();
  });

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
            // No write to a watched table since the last hash: nothing changed, refused or not.
            if ((await writesNoted()) === lastSnapshot.writes) return;
            const now = await snapshot();
            const changed = now.tables.filter(
              (r, i) => r.h !== lastSnapshot.tables[i]?.h || r.n !== lastSnapshot.tables[i]?.n,
            );
            if (res.statusCode >= 400 && changed.length)
              throw new Error(`${res.statusCode} changed ${changed.map((c) => c.t).join(', ')} for ${shown}`);
            lastSnapshot = now;
          }),
          { numRuns: RUNS, seed: seedOf(`${route} as ${identity}`), endOnFailure: true },
        );
      }
    },
    180_000,
  );
});
