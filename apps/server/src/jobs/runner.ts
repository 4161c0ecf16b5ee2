/*
 * Runs the job definitions on pg-boss: creates each queue with its retry and
 * expiry policy, installs the cron schedules, and starts a worker per queue.
 * The server calls it in-process (unless WORKERS=false); `npm run worker`
 * calls it in a process that serves no HTTP. Several processes may run it on
 * one database: pg-boss hands each job to one worker (SKIP LOCKED) and each
 * schedule slot to one process.
 */
import type PgBoss from 'pg-boss';
import { lockForTransaction } from '../db/transaction.js';
import type { JobContext, JobDefinition } from './job-definition.js';

export interface JobLog {
  info: (message: string) => void;
  error: (message: string, err: unknown) => void;
}

export async function registerJobQueues(boss: PgBoss, jobs: readonly JobDefinition[]) {
  for (const def of jobs) {
    const queue = {
      name: def.name,
      retryLimit: def.retry.limit,
      retryDelay: def.retry.delaySeconds,
      retryBackoff: def.retry.backoff,
      expireInSeconds: def.expireInSeconds,
    };
    // The policy on update too: pg-boss's updateQueue sets 'standard' when none is given.
    const policy = def.policy ?? 'standard';
    if (await boss.getQueue(def.name)) await boss.updateQueue(def.name, { ...queue, policy });
    else await boss.createQueue(def.name, { ...queue, policy });
    if (def.schedule)
      await boss.schedule(def.name, def.schedule.cron, def.schedule.payload as object, { tz: 'UTC' });
  }
}

export async function startJobWorkers(
  ctx: JobContext,
  boss: PgBoss,
  jobs: readonly JobDefinition[],
  log: JobLog,
): Promise<void> {
  // One process at a time: pg-boss creates a queue's partition with DDL, and two processes
  // creating the same queues at once deadlock (test/scale-out: three servers starting together).
  await ctx.db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, 'trialwear_job_queues');
    await registerJobQueues(boss, jobs);
  });
  for (const def of jobs) {
    for (let w = 0; w < (def.workers ?? 1); w++) await work(def);
  }

  async function work(def: JobDefinition) {
    await boss.work(def.name, { batchSize: 1 }, async ([job]) => {
      if (!job) return;
      const parsed = def.payload.safeParse(job.data);
      if (!parsed.success) {
        // A payload that does not parse will never succeed: fail it loudly, once, without retries mattering.
        log.error(`job ${def.name} ${job.id}: invalid payload`, parsed.error);
        throw new Error(`Invalid payload for ${def.name}: ${parsed.error.message}`);
      }
      try {
        const result = await def.handler(ctx, parsed.data);
        log.info(
          `job ${def.name} ${job.id} done${result === undefined ? '' : `: ${JSON.stringify(result)}`}`,
        );
        return result;
      } catch (err) {
        log.error(`job ${def.name} ${job.id} failed (pg-boss retries it per its policy)`, err);
        throw err;
      }
    });
  }
  log.info(`workers started: ${jobs.map((j) => j.name).join(', ')}`);
}
