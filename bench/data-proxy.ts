/*
 * What the portal adds to the provider's own latency (issue #10, budget:
 * under 20 ms p95): a 1-year daily steps series read through
 * GET /api/getFitbitServerParticipantData/… against the same read made
 * straight to the Fitbit simulator with the participant's token. Starts the
 * built server as `npm start` does (production mode, temp DATA_DIR, embedded
 * PostgreSQL; the simulator mounted at /sim/fitbit on the same server),
 * links participants through the real consent flow, then takes turns: one
 * direct call, one portal call, each timed on the client. The added latency
 * of a pair is portal − direct; its p50/p95 are the figures.
 *
 *   npm run build && npx tsx --conditions=source bench/data-proxy.ts
 *
 * Fitbit allows 150 calls an hour per user: the pairs are spread over
 * enough participants to stay under it (a portal call is one provider call
 * once the participant's zone is cached).
 *
 * On a shared machine the wall-clock figures stretch with the load (the
 * portal call does its own work AND the simulator's on the same event loop),
 * so the bench also prints the CPU each kind of call costs the server and its
 * PostgreSQL (from /proc, phases of CPU_CALLS calls each): the portal's added
 * CPU per call hardly depends on what else runs.
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Series } from '@trialwear/contract';
import { systemScope } from '../apps/server/src/access/system.js';
import { loadConfig } from '../apps/server/src/config.js';
import { startSession } from '../apps/server/src/features/auth/session.js';
import { insertParticipants } from '../apps/server/src/features/participants/repo.js';
import { createTeam } from '../apps/server/src/features/teams/service.js';
import { insertTrial } from '../apps/server/src/features/trials/repo.js';
import { createUser } from '../apps/server/src/features/users/service.js';
import { legacyToSeries } from '../apps/server/src/providers/fitbit/legacy-series.js';
import { loadTokens } from '../apps/server/src/providers/token-store.js';
import { openRuntimeDatabase } from '../apps/server/src/runtime.js';
import { loadSecrets } from '../apps/server/src/security/secrets.js';
import { freePort } from '../scripts/free-port.mjs';
import { httpClient, link } from './support/consent-link.js';
import { cpuMs, postmasterPid, settle } from './support/cpu.js';
import { postgresRunningOn, spawnLogged, stopProcess, waitFor } from './support/processes.js';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
const PER_PARTICIPANT = 50; // pairs per participant (+ CPU-phase calls): under Fitbit's 150 an hour
const BUDGET_MS = 20;
const CPU_CALLS = Number(process.env.BENCH_CPU_CALLS ?? 100);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
};
const ms = (n: number) => `${n.toFixed(2)} ms`;

async function timed(url: string, headers: Record<string, string>) {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.text();
  const elapsed = performance.now() - t0;
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
  return { elapsed, body };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-data-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const pgPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    SEED_DEMO: 'false',
    DATABASE_URL: '',
    // The direct call is the legacy Web API's (one call, one body): consents go through it too.
    // (The default, Google Health, answers a range with several calls of its own.)
    FITBIT_API: 'legacy',
  };
  delete env.LOG_LEVEL;
  console.log('starting the server (npm start: builds what is stale)…');
  // BENCH_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : [];
  const server = spawnLogged('server', process.execPath, [...profile, 'scripts/start.mjs'], env);
  process.once('SIGINT', () => {
    server.child.kill('SIGTERM');
    server.child.once('exit', () => process.exit(130));
  });
  let closeDb = async () => {};
  try {
    await waitFor(`${base}/api/health`, server);
    const config = loadConfig({ ...env, LOG_LEVEL: 'warn' });
    const runtimeDb = await openRuntimeDatabase(config, () => {});
    closeDb = runtimeDb.stop;
    const db = runtimeDb.database.db;
    const secrets = loadSecrets(config);

    const participants = Math.ceil((PAIRS + WARMUP) / PER_PARTICIPANT);
    const teamId = await createTeam(db, { name: 'Data Bench', hiddenFields: [] });
    const userId = await createUser(db, {
      username: 'databench',
      email: 'databench@bench.example',
      password: 'Bench-pw1!',
      firstName: 'Data',
      lastName: 'Bench',
      teamId,
      role: 'Admin',
      sfaRequired: false,
    });
    const trialId = await insertTrial(db, systemScope.team('fixture', teamId), {
      number: '1',
      name: 'Data',
      notes: '',
      code: 'DB1',
      ownerId: userId,
    });
    await insertParticipants(
      db,
      systemScope.trial('fixture', teamId, trialId),
      Array.from({ length: participants }, (_, i) => ({
        email: `d${i}@bench.example`,
        gender: 'None' as const,
        age: 40,
        notes: null,
        suffix: String(i).padStart(3, '0'),
        code: `DB1-${String(i).padStart(3, '0')}`,
      })),
    );
    const ids = (
      await db.selectFrom('participants').select('id').where('trial_id', '=', trialId).orderBy('id').execute()
    ).map((r) => r.id);
    const session = await startSession(
      { db, now: () => new Date() },
      { ip: '127.0.0.1', userAgent: 'bench' },
      { userId, teamId, status: 'Authorized', tokenVersion: 0 },
    );
    const staff = httpClient(base, `tw_session=${session}`);
    console.log(`linking ${participants} participants through the consent flow…`);
    const tokens: string[] = [];
    for (const id of ids) {
      await link(base, staff, id);
      const linkRow = await db
        .selectFrom('participant_devices')
        .select('id')
        .where('participant_id', '=', id)
        .executeTakeFirstOrThrow();
      tokens.push((await loadTokens({ db, secrets, now: () => new Date() }, linkRow.id))!.accessToken);
    }

    // A year of days ending yesterday (UTC): 365 entries.
    const end = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const start = new Date(Date.parse(`${end}T00:00:00Z`) - 364 * 86_400_000).toISOString().slice(0, 10);
    const resourcePath = `/activities/steps/date/${start}/${end}.json`;
    const directUrl = `${base}/sim/fitbit/1/user/-${resourcePath}`;
    const portalUrl = (pid: number) =>
      `${base}/api/getFitbitServerParticipantData/${pid}/-/${encodeURIComponent(resourcePath)}`;

    const direct: number[] = [];
    const portal: number[] = [];
    const added: number[] = [];
    console.log(
      `${WARMUP} warm-up pairs, then ${PAIRS} pairs (direct, then portal) over ${participants} participants…`,
    );
    for (let i = 0; i < WARMUP + PAIRS; i++) {
      const k = i % participants;
      const d = await timed(directUrl, { authorization: `Bearer ${tokens[k]}` });
      const p = await timed(portalUrl(ids[k]!), { cookie: staff.cookie() });
      if (i === 0) {
        // The portal answers the normalized series: the provider module's mapping of the direct answer.
        const { series, timeZone } = JSON.parse(p.body) as { series: Series[]; timeZone: string };
        const days = series.find((x) => x.metric === 'steps')?.days ?? [];
        if (days.length !== 365) throw new Error(`expected 365 days, got ${days.length}`);
        const query = { resource: 'tracker', params: { path: resourcePath } };
        const want = legacyToSeries(
          query,
          { request: '', status: 200, headers: {}, body: JSON.parse(d.body) },
          timeZone,
        );
        if (JSON.stringify(want.series[0]?.days) !== JSON.stringify(days))
          throw new Error('the portal changed the data');
      }
      if (i < WARMUP) continue;
      direct.push(d.elapsed);
      portal.push(p.elapsed);
      added.push(p.elapsed - d.elapsed);
    }
    const line = (label: string, xs: number[]) =>
      `  ${label.padEnd(26)} p50 ${ms(pct(xs, 0.5)).padStart(10)}  p95 ${ms(pct(xs, 0.95)).padStart(10)}  max ${ms(Math.max(...xs)).padStart(10)}`;
    console.log(
      `\n1-year daily steps series (365 days), ${PAIRS} pairs, ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(line('direct to the simulator', direct));
    console.log(line('through the portal', portal));
    console.log(line('added (portal − direct)', added));

    // CPU per call: a phase of direct calls, then one of portal calls (each waits for a quiet server first).
    const pids = { nodePid: server.child.pid!, pgPid: postmasterPid(dataDir) };
    const cpuPhase = async (call: (i: number) => Promise<unknown>) => {
      await settle(pids);
      const before = { node: cpuMs(pids.nodePid), pg: cpuMs(pids.pgPid, true) };
      for (let i = 0; i < CPU_CALLS; i++) await call(i);
      return {
        node: (cpuMs(pids.nodePid) - before.node) / CPU_CALLS,
        pg: (cpuMs(pids.pgPid, true) - before.pg) / CPU_CALLS,
      };
    };
    const cpuDirect = await cpuPhase((i) =>
      timed(directUrl, { authorization: `Bearer ${tokens[i % participants]}` }),
    );
    const cpuPortal = await cpuPhase((i) =>
      timed(portalUrl(ids[i % participants]!), { cookie: staff.cookie() }),
    );
    console.log(
      `  CPU per call (server + PostgreSQL): direct ${ms(cpuDirect.node)} + ${ms(cpuDirect.pg)}, portal ${ms(cpuPortal.node)} + ${ms(cpuPortal.pg)}; added ${ms(cpuPortal.node + cpuPortal.pg - cpuDirect.node - cpuDirect.pg)}`,
    );
    const p95 = pct(added, 0.95);
    console.log(`  budget: added p95 < ${BUDGET_MS} ms: ${p95 < BUDGET_MS ? 'met' : 'MISSED'} (${ms(p95)})`);
  } finally {
    const problems: unknown[] = [];
    const attempt = async (step: () => Promise<void>) => step().catch((err) => problems.push(err));
    await attempt(closeDb);
    await attempt(() => stopProcess(server));
    if (postgresRunningOn(pgPort)) problems.push(new Error('a postgres process was left behind'));
    fs.rmSync(dataDir, { recursive: true, force: true });
    for (const p of problems) console.error(p);
    if (problems.length) process.exitCode = 1;
  }
}

await main();
