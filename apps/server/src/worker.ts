/*
 * Worker entry (`npm run worker`): runs the background jobs and serves no
 * HTTP. Start as many as needed beside the servers on one PostgreSQL; pg-boss
 * gives each job to one of them. SIGINT/SIGTERM stop taking jobs, let running
 * ones finish (up to 15 s), then close the queue and the database.
 */
import { loadConfig } from './config.js';
import { JOBS } from './jobs/registry.js';
import { startJobWorkers } from './jobs/runner.js';
import { surviveDatabaseOutages } from './process-guard.js';
import { exitOnSignals, jobLog, startRuntime } from './runtime.js';

async function main() {
  const config = loadConfig();
  const log = (m: string) => console.log(`[trialwear-worker] ${m}`);
  const runtime = await startRuntime(config, log);
  exitOnSignals('trialwear-worker', log, runtime.stop);
  try {
    if (!runtime.ctx.boss) throw new Error('The job queue did not start');
    await startJobWorkers(runtime.ctx, runtime.ctx.boss, JOBS, jobLog(log));
  } catch (err) {
    console.error('[trialwear-worker] start failed', err);
    await runtime.stop();
    process.exit(1);
  }
  log(`worker ${process.pid} is running jobs: ${JOBS.map((j) => j.name).join(', ')}`);
}

surviveDatabaseOutages('trialwear-worker');
main().catch((err) => {
  console.error('[trialwear-worker] failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
