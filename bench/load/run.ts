import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { systemScope } from '../../apps/server/src/access/system.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { startSession } from '../../apps/server/src/features/auth/session.js';
import { insertParticipants } from '../../apps/server/src/features/participants/repo.js';
import { createTeam } from '../../apps/server/src/features/teams/service.js';
import { insertTrial } from '../../apps/server/src/features/trials/repo.js';
import { createUser } from '../../apps/server/src/features/users/service.js';
import { openRuntimeDatabase } from '../../apps/server/src/runtime.js';
import { freePort } from '../../scripts/free-port.mjs';
import { cpuMs, postmasterPid, settle } from '../support/cpu.js';
import { vacuumAnalyze } from '../support/health-trial.js';
import { postgresRunningOn, spawnLogged, stopProcess, waitFor } from '../support/processes.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 200);
const USERS = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PROFILE = process.env.BENCH_PROFILE;
const GZIP = process.env.BENCH_GZIP === '1';
/** Trial sizes, each `n` (the whole list, the spec's call) or `n:size` (its first page of `size`, as the trial page asks). */
const CASES = (process.env.BENCH_CASES ?? '12,1436,5000:50').split(',').map((c) => {
  const [n, pageSize] = c.split(':').map(Number);
  return { n: n!, pageSize, query: pageSize ? `?page=1&pageSize=${pageSize}` : '' };
});
const SIZES = [...new Set(CASES.map((c) => c.n))];

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Bytes received per second. */
  bytes: number;
  /** CPU per answered request (ms): the Node.js process and PostgreSQL. */
  nodeCpu: number;
  pgCpu: number;
}

/** Requests and latencies of one target, summed over its rounds. */
class Tally {
  latencies: number[] = [];
  /** Each round's requests per second (answered 2xx), for the spread between rounds. */
  roundRps: number[] = [];
  seconds = 0;
  non2xx = 0;
  errors = 0;
  bytes = 0;
  nodeCpuMs = 0;
  pgCpuMs = 0;
  figures(): Figures {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const pct = (p: number) =>
      Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
    return {
      rps: sorted.length / this.seconds,
      p50: pct(0.5),
      p99: pct(0.99),
      non2xx: this.non2xx,
      errors: this.errors,
      bytes: this.bytes / this.seconds,
      nodeCpu: this.nodeCpuMs / sorted.length,
      pgCpu: this.pgCpuMs / sorted.length,
    };
  }
}

/** One round of load; every answer's latency goes into the tally (2xx only; the rest are counted). */
async function load(
  url: string,
  cookies: string[] | null,
  seconds: number,
  tally?: Tally,
  cpu?: { nodePid: number; pgPid: number },
) {
  let next = 0;
  const cpuBefore = cpu && { node: cpuMs(cpu.nodePid), pg: cpuMs(cpu.pgPid, true) };
  const headers: Record<string, string> = GZIP ? { 'accept-encoding': 'gzip' } : {};
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
    requests: [
      {
        method: 'GET',
        // Each request with the next session's cookie: the sessions in rotation.
        setupRequest: (req: { headers?: Record<string, string> }) =>
          cookies ? { ...req, headers: { ...req.headers, cookie: cookies[next++ % cookies.length]! } } : req,
      },
    ],
  });
  instance.on('response', (_client: unknown, status: number, bytes: number, ms: number) => {
    if (!tally) return;
    tally.bytes += bytes;
    if (status >= 200 && status < 300) tally.latencies.push(ms);
    else tally.non2xx += 1;
  });
  const answeredBefore = tally?.latencies.length ?? 0;
  const result = await instance;
  // The server still works on what the stopped connections had asked for (up to one request a
  // connection, queued for the pool): let it finish, so that the next round starts on an idle
  // server; its CPU counts for this round (the tally's requests do not include these).
  if (cpu) await settle(cpu);
  if (tally) {
    tally.roundRps.push((tally.latencies.length - answeredBefore) / result.duration);
    tally.seconds += result.duration;
    tally.errors += result.errors + result.timeouts;
  }
  if (tally && cpu && cpuBefore) {
    tally.nodeCpuMs += cpuMs(cpu.nodePid) - cpuBefore.node;
    tally.pgCpuMs += cpuMs(cpu.pgPid, true) - cpuBefore.pg;
  }
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main() {
  const startLoad = loadAverage();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-load-'));
  fs.chmodSync(dataDir, 0o755); // reachable by the cluster's user when run as root
  const port = await freePort();
  const pgPort = await freePort();
  const barePort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    SEED_DEMO: 'false',
    DATABASE_URL: '',
    // BENCH_WORKERS=false: the server without its in-process job workers (as when `npm run worker`
    // processes run the jobs); their polling is a cost per second, not per request.
    ...(process.env.BENCH_WORKERS ? { WORKERS: process.env.BENCH_WORKERS } : {}),
  };
  // The server's default log level (info), as in production, unless BENCH_LOG_LEVEL says otherwise.
  delete env.LOG_LEVEL;
  if (process.env.BENCH_LOG_LEVEL) env.LOG_LEVEL = process.env.BENCH_LOG_LEVEL;
  console.log('starting the server (npm start: builds what is stale)…');
  // BENCH_PROFILE=<dir>: the server and the bare server write V8 CPU profiles when they stop, in
  // <dir>/server and <dir>/bare (chrome://inspect, speedscope).
  const profile = (name: string) =>
    PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(PROFILE, name)}`] : [];
  const server = spawnLogged('server', process.execPath, [...profile('server'), 'scripts/start.mjs'], env);
  let bare: ReturnType<typeof spawnLogged> | null = null;
  // Interrupted: still stop what we started (by pid), so no server or PostgreSQL is left behind.
  process.once('SIGINT', () => {
    bare?.child.kill('SIGTERM');
    server.child.kill('SIGTERM');
    server.child.once('exit', () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(130);
    });
  });
  let closeDb = async () => {};
  try {
    await waitFor(`${base}/api/health`, server);

    // The same database, attached as the CLI attaches to a running server.
    const config = loadConfig({ ...env, LOG_LEVEL: 'warn' });
    const runtimeDb = await openRuntimeDatabase(config, () => {});
    closeDb = runtimeDb.stop;
    const db = runtimeDb.database.db;
    const ctx = { db, now: () => new Date() };

    console.log(
      `seeding: one team, ${USERS} users, ${SESSIONS} sessions, trials of ${SIZES.join(' and ')} participants…`,
    );
    const teamId = await createTeam(db, { name: 'Load Bench', hiddenFields: [] });
    const userIds: number[] = [];
    for (let i = 0; i < USERS; i++) {
      userIds.push(
        await createUser(db, {
          username: `load${i}`,
          email: `load${i}@bench.example`,
          password: 'Bench-pw1!',
          firstName: 'Load',
          lastName: `User ${i}`,
          teamId,
          role: 'Admin',
          sfaRequired: false,
        }),
      );
    }
    const trials: Record<number, number> = {};
    const genders = ['None', 'female', 'male', 'other'] as const;
    for (const n of SIZES) {
      const code = `LB${n}`;
      const trialId = await insertTrial(db, systemScope.team('fixture', teamId), {
        number: String(n),
        name: `Load ${n}`,
        notes: '',
        code,
        ownerId: userIds[0]!,
      });
      trials[n] = trialId;
      for (let start = 0; start < n; start += 500) {
        await insertParticipants(
          db,
          systemScope.trial('fixture', teamId, trialId),
          Array.from({ length: Math.min(500, n - start) }, (_, k) => {
            const i = start + k;
            const suffix = String(i).padStart(5, '0');
            return {
              email: `p${n}-${i}@bench.example`,
              gender: genders[i % 4]!,
              age: 20 + (i % 60),
              notes: i % 5 === 0 ? 'Some notes about this participant' : null,
              suffix,
              code: `${code}-${suffix}`,
            };
          }),
        );
      }
    }
    // The planner's statistics, as autovacuum gives a table loaded a minute ago: without them the
    // page of a 5,000-participant trial was planned as a bitmap scan of the whole trial.
    await vacuumAnalyze(dataDir, pgPort);
    const cookies: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const token = await startSession(
        ctx,
        { ip: '127.0.0.1', userAgent: 'bench' },
        { userId: userIds[i % USERS]!, teamId, status: 'Authorized', tokenVersion: 0 },
      );
      cookies.push(`tw_session=${token}`);
    }
    for (const c of CASES) {
      const check = await fetch(`${base}/api/trialParticipants/${trials[c.n]}${c.query}`, {
        headers: { cookie: cookies[0]! },
      });
      const body = (await check.json()) as { participants: unknown[] };
      if (check.status !== 200 || body.participants.length !== Math.min(c.n, c.pageSize ?? c.n))
        throw new Error(`the real route answered ${check.status}: ${JSON.stringify(body).slice(0, 300)}`);
    }
    const first = CASES[0]!.n;

    bare = spawnLogged('bare server', process.execPath, [...profile('bare'), 'bench/load/bare-server.mjs'], {
      ...process.env,
      DATABASE_URL: runtimeDb.database.connectionString,
      PORT: String(barePort),
      TEAM_ID: String(teamId),
    });
    await waitFor(`http://127.0.0.1:${barePort}/bare/trialParticipants/${trials[first]}`, bare);
    // The same-SQL anchor finds the sessions the real route finds, and answers what it answers.
    for (const c of CASES) {
      const path = `trialParticipants/${trials[c.n]}${c.query}`;
      const [real, same] = await Promise.all(
        [`${base}/api/${path}`, `http://127.0.0.1:${barePort}/bare-session/${path}`].map((url) =>
          fetch(url, { headers: { cookie: cookies[1]! } }).then((r) => r.text()),
        ),
      );
      if (real !== same) throw new Error(`the bare route answers otherwise: ${same?.slice(0, 300)}`);
    }

    // Real and the anchors take turns (ROUNDS rounds of DURATION/ROUNDS seconds each), so that a
    // change in the machine's load during the run weighs on all alike. The anchors (bare-server.mjs):
    // the same SQL as the route (the session lookup, then the page), and the page query alone.
    const rows: Array<{
      label: string;
      page: boolean;
      real: Figures;
      sameSql: Figures;
      bare: Figures;
      roundRatios: number[];
    }> = [];
    for (const { n, pageSize, query } of CASES) {
      const bareBase = `http://127.0.0.1:${barePort}`;
      const targets = [
        { url: `${base}/api/trialParticipants/${trials[n]}${query}`, cookies, pid: server.child.pid! },
        {
          url: `${bareBase}/bare-session/trialParticipants/${trials[n]}${query}`,
          cookies,
          pid: bare!.child.pid!,
        },
        {
          url: `${bareBase}/bare/trialParticipants/${trials[n]}${query}`,
          cookies: null,
          pid: bare!.child.pid!,
        },
      ];
      const label = pageSize ? `a page of ${pageSize} of ${n} participants` : `${n} participants`;
      console.log(
        `${label}: warming up, then ${ROUNDS} × ${DURATION / ROUNDS} s each, ${CONNECTIONS} connections…`,
      );
      const pgPid = postmasterPid(dataDir);
      for (const t of targets) await load(t.url, t.cookies, 3, undefined, { nodePid: t.pid, pgPid });
      const tallies = targets.map(() => new Tally());
      for (let r = 0; r < ROUNDS; r++)
        for (const [i, t] of targets.entries())
          await load(t.url, t.cookies, DURATION / ROUNDS, tallies[i], { nodePid: t.pid, pgPid });
      const [real, sameSql, bareOnly] = tallies.map((t) => t.figures());
      // Each round's ratio (its real turn against the same round's same-SQL turn): the spread
      // within one run, beside the run's ratio.
      const roundRatios = tallies[0]!.roundRps.map((rps, r) => rps / tallies[1]!.roundRps[r]!);
      rows.push({
        label,
        page: Boolean(pageSize),
        real: real!,
        sameSql: sameSql!,
        bare: bareOnly!,
        roundRatios,
      });
    }

    const cpuFmt = (f: Figures) =>
      `CPU/request: node ${f.nodeCpu.toFixed(2)} ms + PostgreSQL ${f.pgCpu.toFixed(2)} ms = ${(f.nodeCpu + f.pgCpu).toFixed(2)} ms`;
    const fmt = (f: Figures) =>
      `${f.rps.toFixed(0).padStart(6)} req/s  p50 ${String(f.p50).padStart(5)} ms  p99 ${String(f.p99).padStart(5)} ms  ${(f.bytes / 1024 / 1024).toFixed(1).padStart(6)} MB/s${f.non2xx || f.errors ? `  non-2xx ${f.non2xx} errors ${f.errors}` : ''}`;
    console.log(
      `\nGET /api/trialParticipants/{trialId}: ${CONNECTIONS} connections, ${SESSIONS} sessions, ${DURATION} s, ${os.cpus().length} CPUs${GZIP ? ', gzip' : ''}`,
    );
    console.log(`load average of the machine: ${startLoad} at the start, ${loadAverage()} at the end`);
    const cpu = (f: Figures) => f.nodeCpu + f.pgCpu;
    for (const r of rows) {
      console.log(`${r.label}`);
      console.log(`  real           ${fmt(r.real)}`);
      console.log(`                 ${cpuFmt(r.real)}`);
      console.log(`  bare, same SQL ${fmt(r.sameSql)}`);
      console.log(`                 ${cpuFmt(r.sameSql)}`);
      console.log(`  bare, page SQL ${fmt(r.bare)}`);
      console.log(`                 ${cpuFmt(r.bare)}`);
      // Issue #9: the whole list ≥ 0.5× the bare route; issue #24: a page ≥ 0.9× "a bare Fastify
      // route running the same SQL" — the session lookup and the page (decision 050).
      const target = r.page ? 0.9 : 0.5;
      const ratio = r.real.rps / r.sameSql.rps;
      console.log(
        `  real / bare same SQL ${ratio.toFixed(2)}× (target ≥ ${target}×: ${ratio >= target ? 'met' : 'MISSED'}); by CPU per request ${(cpu(r.sameSql) / cpu(r.real)).toFixed(2)}×; by round ${r.roundRatios.map((x) => `${x.toFixed(2)}×`).join(', ')}`,
      );
      // What the ratio would be on a machine running nothing else: the inverse ratio of CPU per request.
      console.log(
        `  real / bare page SQL only ${(r.real.rps / r.bare.rps).toFixed(2)}×; by CPU per request ${(cpu(r.bare) / cpu(r.real)).toFixed(2)}×`,
      );
    }
  } finally {
    // Each step on its own: the server (and its PostgreSQL) must stop even if another step failed.
    const problems: unknown[] = [];
    const attempt = async (step: () => Promise<void>) => step().catch((err) => problems.push(err));
    if (bare) await attempt(() => stopProcess(bare!));
    await attempt(closeDb);
    await attempt(() => stopProcess(server));
    if (postgresRunningOn(pgPort)) problems.push(new Error('a postgres process was left behind'));
    fs.rmSync(dataDir, { recursive: true, force: true });
    for (const p of problems) console.error(p);
  }
}

await main();
