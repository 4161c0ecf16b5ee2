/*
 * Issue budget: with 5,000 participants in a trial, GET /api/trialParticipants/{trialId}
 * answers in under 50 ms (p95, warm). Seeds a fresh embedded database (or
 * DATABASE_URL), then times the real app over real HTTP.
 * Usage: npx tsx --conditions=source bench/participants-list.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { startRuntime } from '../apps/server/src/runtime.js';
import { benchTeam, signedInCookie } from './support/bench-app.js';

const N = 5000;
const WARMUP = 20;
const RUNS = 200;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-'));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  EMBEDDED_PG_PORT: '54377',
  SEED_DEMO: 'false',
});
const runtime = await startRuntime(config, () => {});
const app = await buildApp(runtime.ctx, { logger: false });
try {
  const db = runtime.ctx.db;
  const { teamId, trialId } = await benchTeam(db, `Bench ${Date.now()}`);
  const genders = ['None', 'female', 'male', 'other'] as const;
  for (let start = 0; start < N; start += 1000) {
    await db
      .insertInto('participants')
      .values(
        Array.from({ length: 1000 }, (_, k) => {
          const i = start + k;
          return {
            team_id: teamId,
            trial_id: trialId,
            email: `p${i}@bench.example`,
            gender: genders[i % 4],
            age: 20 + (i % 60),
            notes: i % 5 === 0 ? 'Some notes about this participant' : null,
            participant_code_suffix: String(i).padStart(5, '0'),
            participant_code: `BEN-${String(i).padStart(5, '0')}`,
          };
        }),
      )
      .execute();
  }
  await db
    .executeQuery({ sql: 'ANALYZE participants', parameters: [], query: { kind: 'RawNode' } } as never)
    .catch(() => {});

  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const cookie = await signedInCookie(base);

  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/trialParticipants/${trialId}`, { headers: { cookie } });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`status ${res.status}: ${body.slice(0, 200)}`);
    if (i >= WARMUP) times.push(ms);
    bytes = body.length;
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!;
  console.log(
    `GET /api/trialParticipants/{trialId} with ${N} participants (${(bytes / 1024).toFixed(0)} KB), ${RUNS} warm runs:`,
  );
  console.log(
    `  p50 ${pct(50).toFixed(1)} ms  p95 ${pct(95).toFixed(1)} ms  p99 ${pct(99).toFixed(1)} ms  max ${times.at(-1)!.toFixed(1)} ms`,
  );
  console.log(`  budget p95 < 50 ms: ${pct(95) < 50 ? 'met' : 'MISSED'}`);
} finally {
  await app.close();
  await runtime.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
