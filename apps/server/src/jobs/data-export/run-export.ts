/*
 * One export job's run. The export_jobs row is the truth; pg-boss only wakes
 * a worker with the job's id, and may do so more than once (a retry, the
 * minute sweep, a waiting job woken when a slot frees). So the run first
 * claims the row under the team's advisory lock:
 * - only a pending job (its wait over) or a processing job whose worker
 *   died (lease expired) can be claimed; anything else is left alone;
 * - at most EXPORT_LIMITS.runningPerTeam (2) jobs of a team run at once,
 *   and the waiting ones start in turns across requesters (repo.waitingJobs),
 *   so one user's backlog does not hold up a colleague's request.
 * While it works, the worker renews its lease every HEARTBEAT_MS and checks
 * its row every POLL_MS; the rows written reach the row as the archive writer
 * hands them on, throttled to one write per PROGRESS_WRITE_MS (issue 27 §4:
 * with the heartbeat alone a short export showed no progress while its file
 * was half written). A cancel (status changed) or a lost lease, seen by any
 * of these writes, aborts the signal, which stops the fetch and the archive
 * writer; the storage writer is aborted, so no partial file is left. The
 * ZIP becomes visible only on commit() (storage contract), under one key per
 * job, and the row turns completed only if this worker still owns it, so a
 * worker killed at any point leaves no half file, and the job's next run
 * writes the one valid ZIP. The requester is emailed (after the commit) when
 * the job completes or fails; never the data, only a link to /DataExport.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  EXPORT_LIMITS,
  EXPORT_MESSAGES,
  type ExportJobParams,
  exportJobParamsSchema,
} from '@trialwear/contract';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { shiftDaysOf } from '../../features/data-export/archive/date-shift.js';
import { writeExportArchive } from '../../features/data-export/archive/write-archive.js';
import { exportStorage, storageKeyOf } from '../../features/data-export/service.js';
import { decryptSecret, encryptSecret } from '../../security/encryption.js';
import { describeCause, storageUnavailableCause } from '../../storage/storage-unavailable.js';
import { ProviderUnavailable } from '../device-sync/sync-device.js';
import { ExportDeferred, fetchMissing, PROVIDER_LIMIT_PHASE } from './fetch-missing.js';
import { mailOutcome } from './mail.js';
import { ThrottledWrites } from './progress-throttle.js';
import * as repo from './repo.js';

/** A lease outlives a few missed heartbeats; a killed worker's job is taken over after it. */
export const LEASE_MS = 15_000;
const HEARTBEAT_MS = 2_000;
/** How often a running job looks at its row for a cancel: well within the promised second. */
const POLL_MS = 200;
/**
 * At most one progress write per this (start to start, one at a time), and the
 * last figure of a burst within it: live for anyone polling (the web polls every
 * 10 s), at most 4 single-row updates a second per running export (docs/decisions/007).
 */
export const PROGRESS_WRITE_MS = 250;
/** Runs of one job (first run, retries after transient failures, takeovers after a crash). */
export const MAX_ATTEMPTS = 3;
const RETRY_DELAY_MS = 10_000;

export type RunOutcome =
  | { status: 'completed'; bytes: number; rows: number }
  | { status: 'failed'; error: string }
  | { status: 'cancelled' | 'lost' | 'skipped' | 'waiting' | 'retry' | 'deferred' | 'not_found' };

type Claim =
  | { ok: true; row: NonNullable<Awaited<ReturnType<typeof repo.jobById>>>; owner: string }
  | { ok: false; outcome: RunOutcome };

/** Claim the job if it may start now (exported for the tests of the claim order). */
export async function claimJob(ctx: AppContext, jobId: string): Promise<Claim> {
  const first = await repo.jobById(ctx.db, jobId);
  if (!first) return { ok: false, outcome: { status: 'not_found' } };
  return inTransaction(ctx, async ({ db }) => {
    await repo.lockTeamSlots(db, first.team_id);
    const now = ctx.now();
    const row = await repo.jobById(db, jobId);
    if (!row) return { ok: false, outcome: { status: 'not_found' } };
    const pendingReady = row.status === 'pending' && (!row.not_before || row.not_before <= now);
    const orphaned = row.status === 'processing' && (!row.lease_expires_at || row.lease_expires_at <= now);
    if (!pendingReady && !orphaned) return { ok: false, outcome: { status: 'skipped' } };
    if (row.attempts >= MAX_ATTEMPTS) {
      // Its runs kept dying or failing: fail it for good (a fresh owner, so the guard matches).
      const owner = randomUUID();
      await repo.claim(db, jobId, owner, now, new Date(now.getTime() + LEASE_MS));
      const failed = await repo.fail(db, jobId, owner, now, failureText('too many attempts'));
      return {
        ok: false,
        outcome: failed ? { status: 'failed', error: failed.error_message ?? '' } : { status: 'skipped' },
      };
    }
    const running = await repo.runningCount(db, row.team_id, now, jobId);
    const free = EXPORT_LIMITS.runningPerTeam - running;
    const queue = (await repo.waitingJobs(db, row.team_id, now)).map((j) => j.id);
    const place = queue.indexOf(jobId);
    if (free <= 0 || place < 0 || place >= free) return { ok: false, outcome: { status: 'waiting' } };
    const owner = randomUUID();
    const claimed = await repo.claim(db, jobId, owner, now, new Date(now.getTime() + LEASE_MS));
    return { ok: true, row: claimed, owner };
  });
}

const failureText = (reason: string) => `The export failed: ${reason}. Please try again.`;

export async function runExport(ctx: AppContext, jobId: string): Promise<RunOutcome> {
  const claim = await claimJob(ctx, jobId);
  if (!claim.ok) {
    if (claim.outcome.status === 'failed') await mailOutcome(ctx, jobId);
    return claim.outcome;
  }
  const { row, owner } = claim;
  const params = exportJobParamsSchema.parse(row.job_params) as ExportJobParams;
  const controller = new AbortController();
  const progress: repo.JobProgress = { rowsWritten: 0, rowsTotal: null, phase: 'fetching' };
  // Under the lease guard: a write that finds the job no longer this worker's stops the run, as the heartbeat does.
  const progressWrites = new ThrottledWrites<repo.JobProgress>(async (p) => {
    if (!(await repo.writeProgress(ctx.db, jobId, owner, ctx.now(), p))) controller.abort();
  }, PROGRESS_WRITE_MS);
  let checking = false;
  let lastBeat = Date.now();
  const timer = setInterval(() => {
    if (checking || controller.signal.aborted) return;
    checking = true;
    const beat = Date.now() - lastBeat >= HEARTBEAT_MS;
    const check = beat
      ? repo.heartbeat(ctx.db, jobId, owner, ctx.now(), new Date(ctx.now().getTime() + LEASE_MS))
      : repo.stillOwned(ctx.db, jobId, owner);
    check
      .then((mine) => {
        if (beat) lastBeat = Date.now();
        if (!mine) controller.abort();
      })
      .catch(() => {})
      .finally(() => {
        checking = false;
      });
  }, POLL_MS);

  const storage = exportStorage(ctx.config);
  const key = storageKeyOf(row.team_id, jobId);
  let writer: Awaited<ReturnType<typeof storage.createWriter>> | null = null;
  try {
    // Raced against the signal: a cancel returns at once, whatever provider call is in flight
    // (that call's readings are stored as any sync's would be; the next call is never made).
    await untilAborted(fetchMissing(ctx, row.team_id, params, controller.signal), controller.signal);
    if (controller.signal.aborted) return await stopped(ctx, jobId);
    progress.phase = 'writing';
    progressWrites.report({ ...progress });
    const shiftDays = params.deidentify ? await participantShifts(ctx, row.team_id, params) : undefined;
    writer = await storage.createWriter(key);
    const result = await writeExportArchive(
      ctx.db,
      {
        teamId: row.team_id,
        participantIds: params.participantIds,
        metricKeys: params.metrics,
        startDate: params.startDate,
        endDate: params.endDate,
        mode: params.exportMode,
        format: params.format,
        jobParams: { jobId, ...params },
        shiftDays,
      },
      writer.stream,
      {
        signal: controller.signal,
        onProgress: (p) => {
          progress.rowsWritten = p.rowsWritten;
          progress.rowsTotal = p.rowsTotal;
          progressWrites.report({ ...progress });
        },
      },
    );
    if (controller.signal.aborted) throw new Error('aborted');
    await endStream(writer.stream);
    const { size } = await writer.commit();
    writer = null;
    // The exact final figure is complete()'s: no throttled write may land after it.
    await progressWrites.stop();
    const now = ctx.now();
    // Readings written: the data files' rows (the dictionary's are metrics).
    const rows = result.files.filter((f) => f.kind === 'data').reduce((n, f) => n + f.rows, 0);
    const done = await repo.complete(ctx.db, jobId, owner, {
      now,
      expiresAt: new Date(now.getTime() + EXPORT_LIMITS.filesKeptDays * 86_400_000),
      size,
      storageKey: key,
      rows,
      manifest: { files: result.files, bytes: result.bytes },
    });
    if (!done) {
      // Cancelled while the file was committed: take it away again. (A lost lease: the new owner writes the same key.)
      const now2 = await repo.jobById(ctx.db, jobId);
      if (now2?.status === 'cancelled') await storage.remove(key);
      return { status: now2?.status === 'cancelled' ? 'cancelled' : 'lost' };
    }
    await mailOutcome(ctx, jobId);
    return { status: 'completed', bytes: size, rows };
  } catch (err) {
    if (writer) await writer.abort().catch(() => {});
    writer = null;
    if (controller.signal.aborted) return await stopped(ctx, jobId);
    const now = ctx.now();
    if (err instanceof ExportDeferred && err.failure === null) {
      // The jobs panel tells a provider limit with its resume time (toExportJob reads the phase).
      const note = err.limitOf ? `${PROVIDER_LIMIT_PHASE}${err.limitOf}` : 'waiting for the provider';
      await repo.requeue(ctx.db, jobId, owner, now, err.until, note, { giveBackAttempt: true });
      return { status: 'deferred' };
    }
    if (isDatabaseUnavailable(err)) {
      // The database went away under the run (a restart, a failover, a terminated connection):
      // not the export's failure, so the attempt is given back and the job runs again from the
      // start once the database answers (the minute sweep wakes it). If the database is still
      // down, this requeue fails too and the lease expiring hands the job to the sweep instead.
      console.warn(`[trialwear] export ${jobId}: the database connection was lost; the export runs again`);
      await repo.requeue(ctx.db, jobId, owner, now, new Date(now.getTime() + RETRY_DELAY_MS), 'retrying', {
        giveBackAttempt: true,
      });
      return { status: 'retry' };
    }
    const store = progress.phase === 'writing' ? storageUnavailableCause(err) : null;
    if (store) {
      // A full or read-only store fails every retry the same way: fail now, and say who must act.
      console.error(
        `[trialwear] export ${jobId} failed: the export storage is full or not writable (${describeCause(store)})`,
      );
      const failed = await repo.fail(ctx.db, jobId, owner, now, EXPORT_MESSAGES.storageUnavailable);
      if (failed) await mailOutcome(ctx, jobId);
      return { status: 'failed', error: EXPORT_MESSAGES.storageUnavailable };
    }
    const transient = err instanceof ExportDeferred || err instanceof ProviderUnavailable;
    if (transient && row.attempts < MAX_ATTEMPTS) {
      console.error(`[trialwear] export ${jobId}: attempt ${row.attempts} failed, retrying:`, err);
      await repo.requeue(
        ctx.db,
        jobId,
        owner,
        now,
        // Never sooner than the device's own back-off after that failure.
        new Date(
          Math.max(
            now.getTime() + RETRY_DELAY_MS * row.attempts,
            err instanceof ExportDeferred ? err.until.getTime() : 0,
          ),
        ),
        'retrying',
      );
      return { status: 'retry' };
    }
    const reason =
      err instanceof ExportDeferred || err instanceof ProviderUnavailable
        ? err.message
        : 'an internal error occurred while writing the file';
    console.error(`[trialwear] export ${jobId} failed:`, err);
    const failed = await repo.fail(ctx.db, jobId, owner, now, failureText(reason));
    if (failed) await mailOutcome(ctx, jobId);
    return { status: 'failed', error: reason };
  } finally {
    clearInterval(timer);
    await progressWrites.stop();
  }
}

/** The run was stopped: by a cancel (the row says so) or by losing the lease to another worker. */
async function stopped(ctx: AppContext, jobId: string): Promise<RunOutcome> {
  const row = await repo.jobById(ctx.db, jobId);
  return { status: row?.status === 'cancelled' ? 'cancelled' : 'lost' };
}

/** The work's result, or an AbortError as soon as the signal aborts (the work's own end is then ignored). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function endStream(stream: NodeJS.WritableStream): Promise<void> {
  const s = stream as NodeJS.WritableStream & { writableEnded?: boolean; writableFinished?: boolean };
  if (s.writableFinished) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    s.once('finish', () => resolve());
    s.once('error', reject);
    if (!s.writableEnded) s.end();
  });
}

/**
 * A de-identified export's shift of each participant (decision 049), from the trial's secret:
 * made (32 random bytes, sealed like provider tokens, audited) on the trial's first such export.
 */
async function participantShifts(
  ctx: AppContext,
  teamId: number,
  params: { trialId: number; participantIds: number[] },
): Promise<Map<number, number>> {
  const fresh = encryptSecret(ctx.secrets.encryptionKey, randomBytes(32).toString('base64'));
  const key = await inTransaction(ctx, async ({ db }) => {
    const k = await repo.trialShiftKey(db, teamId, params.trialId, fresh);
    if (k?.created)
      await recordAudit(db, {
        userId: null,
        teamId,
        action: 'trial.date_shift_key_created',
        entityType: 'trial',
        entityId: params.trialId,
        after: { sealed: true },
      });
    return k;
  });
  if (!key) throw new Error(`export: trial ${params.trialId} of team ${teamId} not found`);
  const secret = Buffer.from(decryptSecret(ctx.secrets, key.sealed), 'base64');
  return new Map(params.participantIds.map((id) => [id, shiftDaysOf(secret, id)]));
}
