/*
 * Issue #23 budgets: a trial of 1,000 participants × 90 days of stored daily
 * health. GET /api/studyHealth/trials/{id} for 14 days answers in p95 <
 * 150 ms and for 90 days < 400 ms on this 2-core machine; evaluating the
 * rules for the 1,000 participants (opening and closing their alerts) takes
 * < 2 s. Seeds a fresh embedded database: one Fitbit link per participant
 * with its state (battery, the provider's last sync), 90 days of
 * device_health_days (wear minutes; every 7th participant wore it little,
 * every 11th has a low battery) and times the real app over real HTTP,
 * against a bare route (GET /api/appVersion) in the same run as the anchor.
 *
 *   npx tsx --conditions=source bench/study-health.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addDays, utcDate } from '@trialwear/zone';
import { sql } from 'kysely';
import { systemScope } from '../apps/server/src/access/system.js';
import { loadConfig } from '../apps/server/src/config.js';
import { trialHealthTable } from '../apps/server/src/features/study-health/service.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { evaluateTrialAlerts } from '../apps/server/src/jobs/study-health/evaluate-alerts.js';
import { startRuntime } from '../apps/server/src/runtime.js';
import { freePort } from '../scripts/free-port.mjs';
import { benchTeam, signedInCookie } from './support/bench-app.js';

const N = Number(process.env.BENCH_PARTICIPANTS ?? 1000);
const DAYS = 90;
const WARMUP = 10;
const RUNS = Number(process.env.BENCH_RUNS ?? 100);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-health-'));
fs.chmodSync(dataDir, 0o755);
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  EMBEDDED_PG_PORT: String(await freePort()),
  SEED_DEMO: 'false',
  DATABASE_URL: '',
});
const runtime = await startRuntime(config, () => {});
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
  for (let start = 0; start < N; start += 500) {
    await db
      .insertInto('participants')
      .values(
        Array.from({ length: Math.min(500, N - start) }, (_, k) => ({
          team_id: teamId,
          trial_id: trialId,
          email: `p${start + k}@bench.example`,
          participant_code_suffix: String(start + k).padStart(5, '0'),
          participant_code: `BEN-${String(start + k).padStart(5, '0')}`,
        })),
      )
      .execute();
  }
  // One Fitbit link each, its state, and 90 days of wear (in SQL: the server writes the same rows).
  await sql`
    INSERT INTO participant_devices (participant_id, team_id, provider, authorization_status, authorization_date, provider_user_id)
    SELECT id, team_id, 'fitbit', 'authorized', now(), 'B' || id FROM participants WHERE trial_id = ${trialId}`.execute(
    db,
  );
  await sql`
    INSERT INTO device_sync_state (participant_device_id, provider_last_sync_at, battery_level, device_checked_at)
    SELECT d.id, now() - interval '1 hour', CASE WHEN d.participant_id % 11 = 0 THEN 9 ELSE 80 END, now()
    FROM participant_devices d JOIN participants p ON p.id = d.participant_id WHERE p.trial_id = ${trialId}`.execute(
    db,
  );
  await sql`
    INSERT INTO device_health_days (participant_device_id, participant_id, local_date, wear_minutes, metrics_present)
    SELECT d.id, d.participant_id, day::date,
           CASE WHEN d.participant_id % 7 = 0 THEN 200 ELSE 600 + (d.participant_id * 37 + extract(doy FROM day)::int * 13) % 840 END,
           ARRAY['heart_rate_intraday', 'steps']
    FROM participant_devices d JOIN participants p ON p.id = d.participant_id
    CROSS JOIN generate_series(${addDays(today, -(DAYS - 1))}::date, ${today}::date, interval '1 day') AS day
    WHERE p.trial_id = ${trialId}`.execute(db);
  await sql`ANALYZE`.execute(db);

  // The rules' evaluation: the first run opens the alerts, the second finds them open.
  const scope = systemScope.trial('job', teamId, trialId);
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
  console.log(
    `  evaluate the rules (${N} participants, ${opened} alerts opened): first ${evals[0]!.toFixed(0)} ms, then median ${pct(evals.slice(1), 50).toFixed(0)} ms  budget < 2000 ms: ${Math.max(...evals) < 2000 ? 'met' : 'MISSED'}`,
  );
} finally {
  await app.close();
  await runtime.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
