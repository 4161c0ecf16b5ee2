/*
 * Runs the job definitions on pg-boss: creates each queue with its retry and
 * expiry policy, installs the cron schedules, and starts a worker per queue.
 * The server calls it in-process (unless WORKERS=false); `npm run worker`
 * calls it in a process that serves no HTTP. Several processes may run it on
 * one database: pg-boss hands each job to one worker (SKIP LOCKED) and each
 * schedule slot to one process. A job's outcome goes to pg-boss only once
 * the database answers (until-database-answers.ts: pg-boss writes it unawaited
 * and never again), so a job caught by a database restart is retried seconds
 * after it, by its own worker, not after its expiry.
 */
import type PgBoss from 'pg-boss';
import { lastConnectionLossAt } from '../db/database.js';
import { lockForTransaction } from '../db/transaction.js';
import type { JobContext, JobDefinition } from './job-definition.js';
import { untilDatabaseAnswers } from './until-database-answers.js';

/** Time left, before a job's expiry, for pg-boss to write its outcome. */
const HAND_OVER_MARGIN_MS = 5_000;

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
      // The outcome is handed to pg-boss before the job's expiry, when pg-boss stops waiting for it.
      const handOverBy = Date.now() + job.expireInSeconds * 1000 - HAND_OVER_MARGIN_MS;
      const parsed = def.payload.safeParse(job.data);
      if (!parsed.success) {
        // A payload that does not parse will never succeed: fail it loudly, once, without retries mattering.
        log.error(`job ${def.name} ${job.id}: invalid payload`, parsed.error);
        throw new Error(`Invalid payload for ${def.name}: ${parsed.error.message}`);
      }
      const startedAt = Date.now();
      let result: unknown;
      try {
        result = await def.handler(ctx, parsed.data);
      } catch (err) {
        log.error(`job ${def.name} ${job.id} failed (pg-boss retries it per its policy)`, err);
        // Failed by a database that went away (a restart, a failover): report it once the database is
        // back, so pg-boss records the failure and retries the job now, not after its expiry.
        await handOver(def, job.id, handOverBy);
        throw err;
      }
      log.info(`job ${def.name} ${job.id} done${result === undefined ? '' : `: ${JSON.stringify(result)}`}`);
      // A job that succeeded just met a database that answered: it waits only when a connection of
      // this process broke while it ran (no probe round trip per job otherwise).
      if (lastConnectionLossAt() >= startedAt) await handOver(def, job.id, handOverBy);
      return result;
    });
  }

  /** Wait (bounded) until pg-boss can write the job's outcome: see until-database-answers.ts. */
  async function handOver(def: JobDefinition, id: string, by: number) {
    const waitedFrom = Date.now();
    if (await untilDatabaseAnswers(ctx.db, by)) {
      const waited = Date.now() - waitedFrom;
      if (waited >= 1_000) log.info(`job ${def.name} ${id}: the database answers again after ${waited} ms`);
      return;
    }
    log.error(
      `job ${def.name} ${id}: the database did not answer before the job's expiry`,
      new Error('outcome not recorded; pg-boss retries the job after its expiry'),
    );
  }

  log.info(`workers started: ${jobs.map((j) => j.name).join(', ')}`);
}
