/*
 * The trial page's participant list at study scale (issue #24 item 5): a
 * trial of 5,000 participants (every 5th with an authorized Fitbit link),
 * GET /api/trialParticipants/{trialId} over real HTTP as the whole list (the
 * spec's call) and as the pages the trial page asks for (decision 040): the
 * first page of 50, the last, a filtered page and a page sorted by code.
 * Each page also from a bare Fastify route in the same process running the
 * same repository query (participants repo trialParticipantsJson: the same
 * SQL, no session, hooks, logging or compression), requests taking turns, so
 * the ratio is of one run. Prints p50/p95/p99 and the plan of each page
 * query (EXPLAIN ANALYZE) after VACUUM ANALYZE as the cluster's superuser.
 * Budget: a page of 50 of 5,000 p95 < 20 ms (as a browser asks: brotli), real ≥ 0.9× bare (both
 * uncompressed: the bare route does not compress).
 * Usage: npx tsx --conditions=source bench/participants-list.ts
 *   BENCH_PARTICIPANTS (5000), BENCH_RUNS (300), BENCH_WARMUP (30)
 */
import os from 'node:os';
import Fastify from 'fastify';
import { trialParticipantsJson } from '../apps/server/src/features/participants/repo.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { explained, recordingDb } from '../apps/server/test/support/recorded-queries.js';
import { benchRuntime, benchTeam, signedInCookie } from './support/bench-app.js';
import { vacuumAnalyze } from './support/health-trial.js';

const N = Number(process.env.BENCH_PARTICIPANTS ?? 5000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const PAGE_BUDGET_MS = 20;

/** The cases: a query string of the route; `bare` also from the bare route. */
const CASES = [
  { label: 'whole list (the spec call)', query: '', bare: false },
  { label: 'page 1 of 50', query: 'page=1&pageSize=50', bare: true },
  { label: `last page of 50`, query: `page=${Math.ceil(N / 50)}&pageSize=50`, bare: true },
  { label: "page 1 of 50, filter 'p12'", query: 'page=1&pageSize=50&filter=p12', bare: true },
  {
    label: 'page 1 of 50, by code desc',
    query: 'page=1&pageSize=50&sort=participant_code&order=desc',
    bare: true,
  },
] as const;

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const startLoad = loadAverage();

const { runtime, config, dataDir, remove } = await benchRuntime('tw-bench-list-');
const app = await buildApp(runtime.ctx, { logger: false });
const bare = Fastify({ logger: false });
try {
  const db = runtime.ctx.db;
  const { teamId, trialId } = await benchTeam(db, `Bench ${Date.now()}`);
  const genders = ['None', 'female', 'male', 'other'] as const;
  for (let start = 0; start < N; start += 1000) {
    const ids = await db
      .insertInto('participants')
      .values(
        Array.from({ length: Math.min(1000, N - start) }, (_, k) => {
          const i = start + k;
          return {
            team_id: teamId,
            trial_id: trialId,
            email: `p${i}@bench.example`,
            gender: genders[i % 4]!,
            age: 20 + (i % 60),
            notes: i % 5 === 0 ? 'Some notes about this participant' : null,
            participant_code_suffix: String(i).padStart(5, '0'),
            participant_code: `BEN-${String(i).padStart(5, '0')}`,
          };
        }),
      )
      .returning('id')
      .execute();
    await db
      .insertInto('participant_devices')
      .values(
        ids
          .filter((_, k) => (start + k) % 5 === 0)
          .map(({ id }) => ({
            participant_id: id,
            team_id: teamId,
            provider: 'fitbit',
            authorization_status: 'authorized',
          })) as never,
      )
      .execute();
  }
  await vacuumAnalyze(dataDir, config.EMBEDDED_PG_PORT);

  // The bare route: the repository's query for the same Admin (sees every trial of the team), its text as the answer.
  bare.get('/bare/:trialId', async (request, reply) => {
    const { trialId: id } = request.params as { trialId: string };
    const q = request.query as Record<string, string>;
    reply.type('application/json; charset=utf-8');
    const page = q.page ? { page: Number(q.page), pageSize: Number(q.pageSize) } : undefined;
    const row = await trialParticipantsJson(db, {
      scope: { teamId, trialUserId: null } as never,
      trialId: Number(id),
      hidden: [],
      page,
      filter: q.filter,
      sort: q.sort ? { by: q.sort as never, desc: q.order === 'desc' } : undefined,
      now: new Date().toISOString(),
    });
    const paging = page ? `,"page":${page.page},"pageSize":${page.pageSize},"total":${row!.total}` : '';
    return `{"hiddenFields":[],"participants":${row!.participants}${paging}}`;
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const bareBase = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;
  const cookie = await signedInCookie(base);

  const realUrl = (query: string) => `${base}/api/trialParticipants/${trialId}${query ? `?${query}` : ''}`;
  const bareUrl = (query: string) => `${bareBase}/bare/${trialId}${query ? `?${query}` : ''}`;
  // Node's fetch asks for gzip/br as a browser does: the real route compresses answers of 16 KiB and more.
  const time = async (url: string, headers: Record<string, string>) => {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
    return { ms, body };
  };

  // The same answer from both, for every page case.
  for (const c of CASES.filter((c) => c.bare)) {
    const [real, plain] = [await time(realUrl(c.query), { cookie }), await time(bareUrl(c.query), {})];
    if (real.body !== plain.body) throw new Error(`${c.label}: the bare route answers differently`);
  }

  const times = new Map<
    string,
    { real: number[]; plain: number[]; bare: number[]; bytes: number; total?: number }
  >();
  for (const c of CASES) times.set(c.label, { real: [], plain: [], bare: [], bytes: 0 });
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const c of CASES) {
      const t = times.get(c.label)!;
      // Turn about which goes first, so neither always follows the other.
      const pair = [
        async () => {
          const r = await time(realUrl(c.query), { cookie });
          if (i >= WARMUP) t.real.push(r.ms);
          t.bytes = r.body.length;
          t.total = (JSON.parse(r.body) as { total?: number }).total;
        },
        async () => {
          if (!c.bare) return;
          const r = await time(bareUrl(c.query), {});
          if (i >= WARMUP) t.bare.push(r.ms);
        },
        async () => {
          if (!c.bare) return;
          // The real route uncompressed, as the bare route answers: the ratio's like for like.
          const r = await time(realUrl(c.query), { cookie, 'accept-encoding': 'identity' });
          if (i >= WARMUP) t.plain.push(r.ms);
        },
      ];
      if (i % 2) pair.reverse();
      for (const step of pair) await step();
    }
  }

  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
  };
  const f = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log(
    `\nGET /api/trialParticipants/{trialId}, ${N} participants (${N / 5} with a link), ${RUNS} warm runs each, ${os.cpus().length} CPUs`,
  );
  console.log(`load average ${startLoad} at the start, ${loadAverage()} at the end`);
  for (const c of CASES) {
    const t = times.get(c.label)!;
    console.log(
      `${c.label} (${(t.bytes / 1024).toFixed(1)} KB${t.total !== undefined ? `, total ${t.total}` : ''})`,
    );
    console.log(`  real p50 ${f(pct(t.real, 50))}  p95 ${f(pct(t.real, 95))}  p99 ${f(pct(t.real, 99))}`);
    if (c.bare) {
      console.log(
        `  real, uncompressed p50 ${f(pct(t.plain, 50))}  p95 ${f(pct(t.plain, 95))}  p99 ${f(pct(t.plain, 99))}`,
      );
      console.log(`  bare p50 ${f(pct(t.bare, 50))}  p95 ${f(pct(t.bare, 95))}  p99 ${f(pct(t.bare, 99))}`);
      // As bench/load's ratio of requests per second: bare's time over the real route's (uncompressed, like bare).
      console.log(
        `  real/bare by p50 ${(pct(t.bare, 50) / pct(t.plain, 50)).toFixed(2)}×, by p95 ${(pct(t.bare, 95) / pct(t.plain, 95)).toFixed(2)}×`,
      );
    }
  }
  const first = times.get('page 1 of 50')!;
  console.log(
    `page of 50: p95 ${f(pct(first.real, 95))} (budget < ${PAGE_BUDGET_MS} ms: ${pct(first.real, 95) < PAGE_BUDGET_MS ? 'met' : 'MISSED'})`,
  );

  // The plans (PostgreSQL's own time per page query), from the repository's compiled SQL.
  const recorded = recordingDb(db);
  for (const c of CASES) {
    const q = Object.fromEntries(new URLSearchParams(c.query));
    recorded.queries.length = 0;
    await trialParticipantsJson(recorded.db, {
      scope: { teamId, trialUserId: null } as never,
      trialId,
      hidden: [],
      page: q.page ? { page: Number(q.page), pageSize: Number(q.pageSize) } : undefined,
      filter: q.filter,
      sort: q.sort ? { by: q.sort as never, desc: q.order === 'desc' } : undefined,
      now: new Date().toISOString(),
    });
    const plan = await db.executeQuery<{ 'QUERY PLAN': string }>(
      explained(recorded.queries[0]!, 'ANALYZE, BUFFERS'),
    );
    const lines = plan.rows.map((r) => r['QUERY PLAN']);
    console.log(`\nplan, ${c.label}: ${lines.at(-1)}`);
    if (process.env.BENCH_PLANS) console.log(lines.join('\n'));
  }
} finally {
  await bare.close();
  await app.close();
  await runtime.stop();
  remove();
}
