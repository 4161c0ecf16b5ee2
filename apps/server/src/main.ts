/*
 * Server entry: HTTP API + SPA + in-process job workers (unless WORKERS=false) on one port. SIGINT and
 * SIGTERM close HTTP (finishing in-flight requests), stop the workers, then
 * stop the embedded PostgreSQL, so no postgres process is left behind.
 */
import { loadConfig } from './config.js';
import { buildApp } from './http/app.js';
import { JOBS } from './jobs/registry.js';
import { startJobWorkers } from './jobs/runner.js';
import { surviveDatabaseOutages } from './process-guard.js';
import { exitOnSignals, jobLog, startRuntime } from './runtime.js';
import { DEMO_PASSWORD, DEMO_USERS, seedDemoIfEmpty, startDemoSync } from './seed/demo.js';

async function main() {
  const config = loadConfig();
  const log = (m: string) => console.log(`[trialwear] ${m}`);
  const started = Date.now();
  const runtime = await startRuntime(config, log);
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(runtime.ctx, { serveWeb: true });
  } catch (err) {
    // Never leave the embedded PostgreSQL behind when the app cannot be built.
    await runtime.stop();
    throw err;
  }

  exitOnSignals('trialwear', log, async () => {
    await app.close();
    await runtime.stop();
  });

  try {
    const seeded = config.SEED_DEMO && (await seedDemoIfEmpty(runtime.ctx));
    if (seeded) log('Seeded the demo team, trials, participants and accounts');
    if (config.WORKERS && runtime.ctx.boss) {
      // In-process workers by default; WORKERS=false leaves the jobs to `npm run worker` processes.
      await startJobWorkers(runtime.ctx, runtime.ctx.boss, JOBS, jobLog(log));
    }
    if (seeded) {
      const jobs = await startDemoSync(runtime.ctx);
      if (jobs)
        log(
          `The demo links' first sync is under way in the background (${jobs} devices: Fitbit, Omron, Dexcom)`,
        );
    }
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    console.error('[trialwear] start failed', err);
    await app.close().catch(() => {});
    await runtime.stop();
    process.exit(1);
  }
  if (config.SEED_DEMO) {
    log(
      `Demo accounts (password ${DEMO_PASSWORD}): ${DEMO_USERS.map((u) => `${u.username} (${u.role})`).join(', ')}`,
    );
  }
  log(`TrialWear is up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // Emailed links (consent, sign-up, reset) use this address: staff should open the same one,
  // or they land signed out on the callback pages (a cookie for localhost is not one for 127.0.0.1).
  console.log(
    `\n  Open TrialWear at ${config.publicUrl}\n  (emailed links use this address; set PUBLIC_URL to change it)\n`,
  );
}

surviveDatabaseOutages('trialwear');
main().catch((err) => {
  console.error('[trialwear] failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
