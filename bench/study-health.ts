import os from 'node:os';
import { isDeepStrictEqual, promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { studyHealthSchema } from '@trialwear/contract';
import { addDays, utcDate } from '@trialwear/zone';
import { systemScope } from '../apps/server/src/access/system.js';
import { healthDays } from '../apps/server/src/features/study-health/repo.js';
import { studyHealth, trialHealthTable } from '../apps/server/src/features/study-health/service.js';
import { brotliQuality } from '../apps/server/src/http/api-compression.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { evaluateTrialAlerts } from '../apps/server/src/jobs/study-health/evaluate-alerts.js';
import { benchRuntime, benchTeam, signedInCookie } from './support/bench-app.js';
import { seedHealthTrial, vacuumAnalyze } from './support/health-trial.js';

const N = Number(process.env.BENCH_PARTICIPANTS ?? 1000);
const DAYS = 90;
const WARMUP = 10;
const RUNS = Number(process.env.BENCH_RUNS ?? 100);

const { runtime, config, dataDir, remove } = await benchRuntime('tw-bench-health-');
const app = await buildApp(runtime.ctx, { logger: false });
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
try {
  const db = runtime.ctx.db;
  const today = utcDate(Date.now());
  const { teamId, trialId } = await benchTeam(db, 'Bench health');
  console.log(`seeding ${N} participants × ${DAYS} days…`);
  await seedHealthTrial(db, { teamId, trialId, code: 'BEN' }, N, DAYS);
  await vacuumAnalyze(dataDir, config.EMBEDDED_PG_PORT);

  // The rules' evaluation: the first run opens the alerts, the second finds them open.
  const scope = systemScope.trial('job', teamId, trialId);
  // The bench Admin (bench/support/bench-app.ts), as the route's actor.
  const admin = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'bench')
    .executeTakeFirstOrThrow();
  const actor = {
    userId: admin.id,
    teamId,
    role: 'Admin' as const,
    requestId: 'bench',
    ip: '127.0.0.1',
    hiddenParticipantFields: [],
  };
  const evals: number[] = [];
  let opened = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const r = await evaluateTrialAlerts(runtime.ctx, scope);
    evals.push(performance.now() - t0);
    if (i === 0) opened = r.opened;
  }

  // The service alone (its queries and merging, no HTTP or serialization): where the time goes.
  const service: number[] = [];
  for (let i = 0; i < WARMUP + 30; i++) {
    const t0 = performance.now();
    await trialHealthTable(runtime.ctx, scope, { from: addDays(today, -13), to: today });
    if (i >= WARMUP) service.push(performance.now() - t0);
  }

  // Where the time of the answer goes, stage by stage (CPU of this process, which runs them all
  // but the query's PostgreSQL side): the days' query alone, the service (queries + merging), a
  // zod validation of the whole answer, JSON.stringify, brotli at quality 4 and at the server's.
  const brotli = promisify(brotliCompress);
  const stages = async (days: number) => {
    const range = { from: addDays(today, -(days - 1)), to: today };
    const out = {
      query: [] as number[],
      answer: [] as number[],
      service: [] as number[],
      zod: [] as number[],
      json: [] as number[],
      brotli: [] as number[],
      brotliServer: [] as number[],
    };
    let bytes = 0;
    let sizes = '';
    for (let i = 0; i < 3 + 10; i++) {
      let t0 = performance.now();
      await healthDays(db, scope, range.from, range.to);
      const query = performance.now() - t0;
      // What the route runs: the answer as JSON text, the days as PostgreSQL wrote them.
      t0 = performance.now();
      const routeText = await studyHealth(runtime.ctx, actor, trialId, range);
      const answerMs = performance.now() - t0;
      t0 = performance.now();
      const table = await trialHealthTable(runtime.ctx, scope, range);
      const service = performance.now() - t0;
      const answer = {
        trialId,
        timezone: table.rules.timezone,
        from: table.from,
        to: table.to,
        rules: table.rules,
        digestSubscribed: false,
        participants: table.participants,
      };
      t0 = performance.now();
      studyHealthSchema.parse(answer);
      const zod = performance.now() - t0;
      t0 = performance.now();
      const text = JSON.stringify(answer);
      const json = performance.now() - t0;
      if (!isDeepStrictEqual(JSON.parse(routeText).participants, answer.participants))
        throw new Error('the route’s text and the table’s objects disagree');
      t0 = performance.now();
      const br4 = await brotli(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
      const br = performance.now() - t0;
      t0 = performance.now();
      const br2 = await brotli(text, {
        params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality(text.length) },
      });
      const brServer = performance.now() - t0;
      sizes = `${(br4.length / 1024).toFixed(0)} / ${(br2.length / 1024).toFixed(0)} KB`;
      bytes = text.length;
      if (i < 3) continue;
      out.query.push(query);
      out.answer.push(answerMs);
      out.service.push(service);
      out.zod.push(zod);
      out.json.push(json);
      out.brotli.push(br);
      out.brotliServer.push(brServer);
    }
    const med = (xs: number[]) => pct(xs, 50).toFixed(1);
    return `days query (whole range, one connection) ${med(out.query)}, the route's answer text (queries, halves at once) ${med(out.answer)}; as objects (the evaluation's and the report's): service ${med(out.service)}, zod ${med(out.zod)}, JSON.stringify ${med(out.json)}; brotli-4 ${med(out.brotli)}, brotli at the server's quality (${brotliQuality(bytes)}) ${med(out.brotliServer)} ms (${(bytes / 1024 / 1024).toFixed(1)} MB; brotli-4 / server ${sizes})`;
  };
  const stages14 = await stages(14);
  const stages90 = await stages(90);

  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const cookie = await signedInCookie(base);

  const timed = async (url: string) => {
    const times: number[] = [];
    let bytes = 0;
    let participants = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t0 = performance.now();
      const res = await fetch(`${base}${url}`, { headers: { cookie } });
      const body = await res.text();
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
      if (i >= WARMUP) times.push(ms);
      bytes = body.length;
      if (i === 0 && url.includes('studyHealth')) participants = JSON.parse(body).participants.length;
    }
    return { times, bytes, participants };
  };
  const anchor = await timed('/api/appVersion');
  const d14 = await timed(`/api/studyHealth/trials/${trialId}?from=${addDays(today, -13)}&to=${today}`);
  const d90 = await timed(`/api/studyHealth/trials/${trialId}?from=${addDays(today, -89)}&to=${today}`);
  if (d14.participants !== N || d90.participants !== N) throw new Error('not every participant answered');

  const line = (label: string, r: { times: number[]; bytes: number }, budget?: number) =>
    `  ${label.padEnd(34)} p50 ${pct(r.times, 50).toFixed(1).padStart(7)} ms  p95 ${pct(r.times, 95)
      .toFixed(1)
      .padStart(
        7,
      )} ms  (${(r.bytes / 1024).toFixed(0)} KB)  ×${(pct(r.times, 95) / pct(anchor.times, 95)).toFixed(0)} the anchor${
      budget ? `  budget p95 < ${budget} ms: ${pct(r.times, 95) < budget ? 'met' : 'MISSED'}` : ''
    }`;
  console.log(
    `\n${N} participants × ${DAYS} days, ${RUNS} warm runs, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  console.log(line('GET /api/appVersion (anchor)', anchor));
  console.log(line('GET studyHealth, 14 days', d14, 150));
  console.log(line('GET studyHealth, 90 days', d90, 400));
  console.log(`  of which the service, 14 days (queries + merging): p50 ${pct(service, 50).toFixed(1)} ms`);
  console.log(`  stages (medians, one at a time), 14 days: ${stages14}`);
  console.log(`  stages (medians, one at a time), 90 days: ${stages90}`);
  console.log(
    `  evaluate the rules (${N} participants, ${opened} alerts opened): first ${evals[0]!.toFixed(0)} ms, then median ${pct(evals.slice(1), 50).toFixed(0)} ms  budget < 2000 ms: ${Math.max(...evals) < 2000 ? 'met' : 'MISSED'}`,
  );
} finally {
  await app.close();
  await runtime.stop();
  remove();
}
