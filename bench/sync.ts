/*
 * Background sync at scale (issue #11): N linked simulated Fitbit
 * participants (default 1,000), each storing the tracker metrics the sync
 * reads, synced for one day (SYNC_BACKFILL_DAYS=1) by the operator's
 * `sync-now` against the built server and its mounted simulator, which
 * enforces Fitbit's 150 calls per user and hour. The figures: wall time,
 * provider calls, rows, the most calls any one user received this hour,
 * and 429s (must be 0: the sync's own budget stops first).
 *
 *   npm run build && npx tsx --conditions=source bench/sync.ts
 */

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fitbitUserId } from '@trialwear/simulators';
import { sql } from 'kysely';
import { systemScope } from '../apps/server/src/access/system.js';
import type { AppContext } from '../apps/server/src/app-context.js';
import { loadConfig } from '../apps/server/src/config.js';
import { startSession } from '../apps/server/src/features/auth/session.js';
import { authorizeUrl, completeConsent } from '../apps/server/src/features/device-links/consent-flow.js';
import { insertParticipants } from '../apps/server/src/features/participants/repo.js';
import { createTeam } from '../apps/server/src/features/teams/service.js';
import { insertTrial } from '../apps/server/src/features/trials/repo.js';
import { createUser } from '../apps/server/src/features/users/service.js';
import { createProviderRegistry } from '../apps/server/src/providers/registry.js';
import { openRuntimeDatabase } from '../apps/server/src/runtime.js';
import { loadSecrets } from '../apps/server/src/security/secrets.js';
import { freePort } from '../scripts/free-port.mjs';
import { httpClient } from './support/consent-link.js';
import { root, spawnLogged, stopProcess, waitFor } from './support/processes.js';

const N = Number(process.env.BENCH_PARTICIPANTS ?? 1000);
const LINK_CONCURRENCY = 8;
const METRICS = [
  'steps',
  'distance',
  'floors',
  'calories',
  'minutes_sedentary',
  'minutes_lightly_active',
  'minutes_fairly_active',
  'minutes_very_active',
  'resting_heart_rate',
  'sleep_duration',
  'spo2',
  'weight',
];

/**
 * The consent flow with the portal's own services: the emailed link from the
 * API, then authorizeUrl and completeConsent called in this process (the
 * routes that front them allow 30 a minute per IP, which would make linking
 * 1,000 participants from one address take half an hour), and the
 * simulator's Allow over HTTP.
 */
async function link(ctx: AppContext, staff: ReturnType<typeof httpClient>, participantId: number) {
  const req = await staff.post(`/api/participantDevices/${participantId}/fitbit/consentRequest`, {});
  if (!req.ok) throw new Error(`consentRequest ${req.status}: ${await req.text()}`);
  const consent = new URL(((await req.json()) as { link: string }).link);
  const client = ctx.providers.fitbit;
  const { url } = await authorizeUrl(ctx, client, participantId, consent.searchParams.get('t')!);
  const page = await (await fetch(url)).text();
  const form = Object.fromEntries(
    [...page.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replaceAll('&#34;', '"')]),
  );
  const authorize = new URL(url);
  const back = await fetch(`${authorize.origin}${authorize.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form, decision: 'allow' }).toString(),
    redirect: 'manual',
  });
  const callback = new URL(back.headers.get('location')!);
  await completeConsent(
    ctx,
    client,
    callback.searchParams.get('code')!,
    callback.searchParams.get('state')!,
    '127.0.0.1',
  );
}

function cli(env: NodeJS.ProcessEnv, args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'apps/server/src/cli/main.ts', ...args],
      {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() }));
  });
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-sync-'));
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
    // The bench's sync-now is the only sync (no scheduled one in the server).
    WORKERS: 'false',
    SYNC_BACKFILL_DAYS: '1',
    // The simulator's per-user call counts, read at the end.
    SIMULATOR_CONTROL: 'true',
  };
  delete env.LOG_LEVEL;
  console.log('starting the server…');
  const server = spawnLogged('server', process.execPath, ['scripts/start.mjs'], env);
  let closeDb = async () => {};
  try {
    await waitFor(`${base}/api/health`, server);
    const config = loadConfig({ ...env, LOG_LEVEL: 'warn' });
    const runtimeDb = await openRuntimeDatabase(config, () => {});
    closeDb = runtimeDb.stop;
    const db = runtimeDb.database.db;
    const secrets = loadSecrets(config);
    const ctx = {
      config,
      db,
      boss: null,
      secrets,
      providers: createProviderRegistry(config, secrets),
      now: () => new Date(),
    } as unknown as AppContext;
    const teamId = await createTeam(db, { name: 'Sync Bench', hiddenFields: [] });
    const userId = await createUser(db, {
      username: 'syncbench',
      email: 'syncbench@bench.example',
      password: 'Bench-pw1!',
      firstName: 'Sync',
      lastName: 'Bench',
      teamId,
      role: 'Admin',
      sfaRequired: false,
    });
    const trialId = await insertTrial(db, systemScope.team('fixture', teamId), {
      number: '1',
      name: 'Sync',
      notes: '',
      code: 'SB1',
      ownerId: userId,
    });
    await insertParticipants(
      db,
      systemScope.trial('fixture', teamId, trialId),
      Array.from({ length: N }, (_, i) => ({
        email: `s${i}@bench.example`,
        gender: 'None' as const,
        age: 40,
        notes: null,
        suffix: String(i).padStart(4, '0'),
        code: `SB1-${String(i).padStart(4, '0')}`,
      })),
    );
    const ids = (
      await db.selectFrom('participants').select('id').where('trial_id', '=', trialId).orderBy('id').execute()
    ).map((r) => r.id);
    // What the metrics manager and the retention page would store: the tracker metrics and the scale's weight.
    await sql`
      INSERT INTO device_metric_settings (team_id, team_supported_device_id, metric_key, metric_name, is_enabled)
      SELECT s.team_id, s.id, m.k, m.k, true
      FROM team_supported_devices s JOIN global_device_catalog g ON g.id = s.global_device_catalog_id
      CROSS JOIN unnest(${METRICS}::text[]) AS m(k)
      WHERE s.team_id = ${teamId} AND g.manufacturer = 'Fitbit'`.execute(db);
    await sql`
      INSERT INTO team_storage_settings (team_id, device_type, metric_key, metric_name)
      SELECT ${teamId}, CASE WHEN m.k = 'weight' THEN 'scale' ELSE 'fitness_tracker' END, m.k, m.k
      FROM unnest(${METRICS}::text[]) AS m(k)`.execute(db);

    const session = await startSession(
      { db, now: () => new Date() },
      { ip: '127.0.0.1', userAgent: 'bench' },
      { userId, teamId, status: 'Authorized', tokenVersion: 0 },
    );
    const staff = httpClient(base, `tw_session=${session}`);
    console.log(`linking ${N} participants through the consent flow…`);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: LINK_CONCURRENCY }, async () => {
        while (next < ids.length) await link(ctx, staff, ids[next++]!);
      }),
    );
    console.log(`linked in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    console.log('sync-now…');
    const s0 = performance.now();
    const run = await cli({ ...env, LOG_LEVEL: 'silent' }, ['sync-now']);
    const seconds = (performance.now() - s0) / 1000;
    const out = JSON.parse(run.stdout.split('\n').at(-1) ?? '{}') as {
      devices: number;
      metrics: number;
      rowsUpserted: number;
      calls: number;
      errors: Array<{ error: string }>;
    };
    const rateLimited = out.errors.filter((e) => /Rate limited/.test(e.error)).length;
    // The simulator's own count per user (this hour), for every participant.
    const clientId = 'TRIALWEARSIM';
    let maxCalls = 0;
    for (const id of ids) {
      const res = await fetch(
        `${base}/sim/fitbit/_control/calls?userId=${encodeURIComponent(fitbitUserId(`${clientId}:${id}`))}`,
      );
      if (res.ok) maxCalls = Math.max(maxCalls, ((await res.json()) as { calls: number }).calls);
    }
    console.log(
      JSON.stringify({
        participants: N,
        devices: out.devices,
        metrics: out.metrics,
        providerCalls: out.calls,
        rowsUpserted: out.rowsUpserted,
        seconds: Number(seconds.toFixed(1)),
        callsPerSecond: Number((out.calls / seconds).toFixed(0)),
        maxCallsOneUserThisHour: maxCalls,
        rateLimited429: rateLimited,
        errors: out.errors.length,
        exitCode: run.code,
      }),
    );
    if (run.code !== 0 || rateLimited > 0) process.exitCode = 1;
  } finally {
    await closeDb();
    await stopProcess(server);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
