/*
 * Batch data export (admin §1–§9, issue #12): the page's lists, the request
 * (re-validated here whatever the web checked: dates against the server's
 * clock, the trial visible to the caller, the device of the team,
 * participants of that trial linked to the device's brand, metrics the team
 * may export for that device), the jobs panel, download, delete and cancel.
 * Everything is scoped by `access/`: another team's job, or for a User
 * another trial's, is not found (404). Every
 * request, download, cancel and delete is audited with the job parameters.
 * The work itself is jobs/data-export/.
 */
import {
  type BatchExportBody,
  canCancelExport,
  canDeleteExport,
  EXPORT_LIMITS,
  EXPORT_MESSAGES,
  type ExportDevice,
  type ExportJob,
  type ExportJobParams,
  type ExportJobsResult,
  type ExportMetric,
  type ExportParticipant,
  type ExportPolicyBody,
  type ExportTrial,
  exportDateIssue,
  exportJobParamsSchema,
  exportZipName,
} from '@trialwear/contract';
import { localDate } from '@trialwear/zone';
import { AppError, notFound } from '../../access/errors.js';
import {
  type Actor,
  requireExportJob,
  requireTrial as requireVisibleTrial,
  type TeamScope,
  type TrialScope,
  teamScope,
  visibleTrials,
} from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit } from '../../audit/audit-log.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import { createExportStorage, type ExportStorage } from '../../storage/export-storage.js';
import * as repo from './repo.js';

const storages = new WeakMap<Config, ExportStorage>();
/** One storage per configuration (the S3 client, if any, is built once). */
export function exportStorage(config: Config): ExportStorage {
  let s = storages.get(config);
  if (!s) {
    s = createExportStorage(config);
    storages.set(config, s);
  }
  return s;
}

/** Where a job's ZIP lives in the storage: one key per job, so a retried job overwrites, never duplicates. */
export const storageKeyOf = (teamId: number, jobId: string) => `team-${teamId}/${jobId}.zip`;

/**
 * "Today" for the age of the start date: the date in the zone furthest
 * behind UTC (UTC−12), so a caller anywhere whose own today allows the start
 * is not refused by the server's.
 */
export const earliestToday = (now: Date) => localDate('Etc/GMT+12', now);

/**
 * "Today" for "the end date is not in the future": the date in the zone
 * furthest ahead of UTC (UTC+14), so a caller anywhere may end on their own today.
 */
export const latestToday = (now: Date) => localDate('Etc/GMT-14', now);

const badRequest = (message: string) =>
  new AppError(400, message, 'ValidationError', {
    displayToUser: true,
    errors: [{ path: '', message }],
  });

// ---------------------------------------------------------------- lists

export async function listTrials(ctx: AppContext, actor: Actor): Promise<ExportTrial[]> {
  const rows = await repo.visibleTrials(ctx.db, visibleTrials(actor));
  const policies = await repo.exportPolicies(ctx.db, teamScope(actor), rows);
  return rows.map((t) => ({
    trialId: t.id,
    trialName: t.trial_name,
    trialNumber: t.trial_number,
    allowIdentifiedExports: policies.get(t.id) ?? true,
  }));
}

/** PUT /api/dataExport/trials/{trialId}/policy: the trial's export policy, audited (before and after). */
export async function setExportPolicy(
  ctx: AppContext,
  actor: Actor,
  trialId: number,
  body: ExportPolicyBody,
) {
  const trial = await requireTrial(ctx, actor, trialId);
  await inTransaction(ctx, async ({ db }) => {
    const before = await repo.exportPolicyForUpdate(db, trial);
    if (before === undefined) throw notFound(EXPORT_MESSAGES.trialNotFound);
    if (before === body.allowIdentifiedExports) return;
    await repo.setExportPolicy(db, trial, body.allowIdentifiedExports);
    await recordActorAudit(db, actor, {
      action: 'trial.export_policy',
      entityType: 'trial',
      entityId: trialId,
      before: { allowIdentifiedExports: before },
      after: { allowIdentifiedExports: body.allowIdentifiedExports },
    });
  });
  return {
    success: true,
    message: EXPORT_MESSAGES.policySaved,
    allowIdentifiedExports: body.allowIdentifiedExports,
  };
}

export async function listDevices(ctx: AppContext, actor: Actor): Promise<ExportDevice[]> {
  return (await repo.teamDevices(ctx.db, teamScope(actor))).map((d) => ({
    id: d.id,
    friendlyName: d.device_name,
    deviceType: d.device_type,
    manufacturer: d.manufacturer,
  }));
}

const requireTrial = (ctx: AppContext, actor: Actor, trialId: number): Promise<TrialScope> =>
  requireVisibleTrial(ctx, actor, trialId, EXPORT_MESSAGES.trialNotFound);

async function requireDevice(ctx: AppContext, team: TeamScope, deviceId: number) {
  const device = await repo.findTeamDevice(ctx.db, team, deviceId);
  if (!device) throw notFound(EXPORT_MESSAGES.deviceNotFound);
  return device;
}

export async function listParticipants(
  ctx: AppContext,
  actor: Actor,
  trialId: number,
  deviceId: number,
): Promise<ExportParticipant[]> {
  const trial = await requireTrial(ctx, actor, trialId);
  const device = await requireDevice(ctx, teamScope(actor), deviceId);
  const hideEmail = actor.hiddenParticipantFields.includes('email');
  return (await repo.linkedParticipants(ctx.db, trial, device.manufacturer)).map((p) => ({
    participantId: p.id,
    participantCode: p.participant_code,
    email: hideEmail ? null : p.email,
  }));
}

export async function listMetrics(ctx: AppContext, actor: Actor, deviceId: number): Promise<ExportMetric[]> {
  const team = teamScope(actor);
  const device = await requireDevice(ctx, team, deviceId);
  return (await repo.exportableMetrics(ctx.db, team, device.id, device.device_type)).map((m) => ({
    metric_key: m.metric_key,
    metric_name: m.metric_name,
    category: m.category,
    units: m.units,
  }));
}

// ---------------------------------------------------------------- jobs

type JobRow = NonNullable<Awaited<ReturnType<typeof repo.findJob>>>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toExportJob(row: JobRow): ExportJob {
  const params = exportJobParamsSchema.safeParse(row.job_params);
  const total = row.rows_total === null ? null : Number(row.rows_total);
  return {
    id: row.id,
    status: row.status,
    job_params: params.success ? params.data : (row.job_params as ExportJobParams),
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    file_size: row.file_size === null ? null : Number(row.file_size),
    error_message: row.status === 'expired' ? EXPORT_MESSAGES.expiredNote : row.error_message,
    progress: total === null ? null : { rowsWritten: Number(row.rows_written), rowsTotal: total },
    expires_at: iso(row.expires_at),
    waiting:
      row.status === 'pending' && row.not_before && row.phase?.startsWith(repo.PROVIDER_LIMIT_PHASE)
        ? {
            brand: row.phase.slice(repo.PROVIDER_LIMIT_PHASE.length),
            resumesAt: row.not_before.toISOString(),
          }
        : null,
  };
}

export async function listJobs(ctx: AppContext, actor: Actor, limit: number): Promise<ExportJobsResult> {
  const scope = visibleTrials(actor);
  const [rows, total] = await Promise.all([
    repo.latestJobs(ctx.db, scope, limit),
    repo.countJobs(ctx.db, scope),
  ]);
  // The panel names participants by code and metrics by name, as the form does.
  const jobs = rows.map(toExportJob);
  const { codes, metricNames } = await repo.jobLabels(
    ctx.db,
    scope,
    [...new Set(jobs.flatMap((j) => j.job_params.participantIds))],
    [...new Set(jobs.flatMap((j) => j.job_params.metrics))],
  );
  const data = jobs.map((j) => ({
    ...j,
    labels: {
      participants: Object.fromEntries(
        j.job_params.participantIds.flatMap((id) =>
          codes.has(id) ? [[String(id), codes.get(id) ?? null]] : [],
        ),
      ),
      metrics: Object.fromEntries(
        j.job_params.metrics.flatMap((k) => (metricNames.has(k) ? [[k, metricNames.get(k)!]] : [])),
      ),
    },
  }));
  return { success: true, data, total };
}

/** What the audit keeps of a job: its parameters and state (never data). */
const auditOf = (row: JobRow) => ({
  status: row.status,
  jobParams: row.job_params,
  fileSize: row.file_size === null ? null : Number(row.file_size),
});

/**
 * POST /api/dataExport/batchDataExport: every rule again on the server, the
 * job row and its audit entry in one transaction; the worker is woken after
 * the commit (`wake`, from the jobs module, so that this feature does not
 * import the job runner).
 */
export async function requestExport(
  ctx: AppContext,
  actor: Actor,
  body: BatchExportBody,
  wake: (teamId: number) => Promise<void>,
) {
  const issue = exportDateIssue(
    body.startDate,
    body.endDate,
    earliestToday(ctx.now()),
    latestToday(ctx.now()),
  );
  if (issue) throw badRequest(issue);
  const trial = await requireTrial(ctx, actor, body.trialId);
  const team = teamScope(actor);
  // The trial's Admin may allow only de-identified exports (decision 049): refused, and audited as a 403.
  if (
    !body.deidentify &&
    (await repo.exportPolicies(ctx.db, team, [{ id: trial.trialId }])).get(trial.trialId) === false
  )
    throw new AppError(403, EXPORT_MESSAGES.identifiedNotAllowed, 'Forbidden', { displayToUser: true });
  const device = await requireDevice(ctx, team, body.deviceId);
  const participantIds = [...new Set(body.participantIds)];
  const metrics = [...new Set(body.metrics)];
  const eligible = await repo.linkedParticipants(ctx.db, trial, device.manufacturer, participantIds);
  if (eligible.length !== participantIds.length) throw badRequest(EXPORT_MESSAGES.participantsNotEligible);
  const exportable = new Set(
    (await repo.exportableMetrics(ctx.db, team, device.id, device.device_type)).map((m) => m.metric_key),
  );
  if (!metrics.every((m) => exportable.has(m))) throw badRequest(EXPORT_MESSAGES.metricsNotAvailable);

  const params: ExportJobParams = {
    fileName: body.fileName,
    startDate: body.startDate,
    endDate: body.endDate,
    participantIds,
    metrics,
    trialId: body.trialId,
    deviceId: body.deviceId,
    exportMode: body.exportMode,
    format: body.format,
    deidentify: body.deidentify,
  };
  const row = await inTransaction(ctx, async ({ db }) => {
    await refuseBeyondUserBound(db, actor.userId);
    const job = await repo.insertJob(db, trial, {
      userId: actor.userId,
      params,
      now: ctx.now(),
    });
    await recordActorAudit(db, actor, {
      action: 'data_export.requested',
      entityType: 'export_job',
      entityId: job.id,
      after: { jobParams: params, device: device.device_name },
    });
    return job;
  });
  // A failure to wake is not the caller's: the minute sweep starts the job anyway.
  await wake(actor.teamId).catch((err: unknown) => {
    console.error(`[trialwear] export ${row.id}: could not wake a worker: ${(err as Error)?.message ?? err}`);
  });
  return { success: true, message: EXPORT_MESSAGES.success, error: null, jobId: row.id };
}

/**
 * At most EXPORT_LIMITS.activePerUser pending or processing jobs per user
 * (issue 21): counted under the user's advisory lock, in the transaction that
 * inserts the job, so parallel requests take turns and exactly the bound is
 * accepted. The refusal is a 429 with a displayable message and writes
 * nothing (not audited: only access refusals, 403/404, are, as elsewhere).
 */
async function refuseBeyondUserBound(db: Db, userId: number) {
  await repo.lockUserRequests(db, userId);
  if ((await repo.activeJobsOfUser(db, userId)) >= EXPORT_LIMITS.activePerUser)
    throw new AppError(429, EXPORT_MESSAGES.tooManyActive, 'LimitReached', { displayToUser: true });
}

/** The job if its trial is one the actor sees (another trial's or team's job: 404), with its scope. */
async function requireJob(ctx: AppContext, actor: Actor, id: string) {
  const scope = await requireExportJob(ctx, actor, id);
  const row = await repo.findJob(ctx.db, scope);
  if (!row) throw notFound(EXPORT_MESSAGES.jobNotFound);
  return { scope, row };
}

const expiredError = () => new AppError(410, EXPORT_MESSAGES.expired, 'NotFound', { displayToUser: true });

/**
 * GET /api/dataExport/jobs/{id}/download: authorized on every request (team,
 * role by the route table), audited, then streamed from the storage.
 */
export async function openDownload(ctx: AppContext, actor: Actor, id: string) {
  const { row } = await requireJob(ctx, actor, id);
  if (row.status === 'expired') throw expiredError();
  if (row.status !== 'completed' || !row.storage_key)
    throw new AppError(409, EXPORT_MESSAGES.notReady, 'Conflict', { displayToUser: true });
  if (row.expires_at && row.expires_at <= ctx.now()) throw expiredError();
  const file = await exportStorage(ctx.config).open(row.storage_key);
  if (!file) throw expiredError();
  try {
    await inTransaction(ctx, ({ db }) =>
      recordActorAudit(db, actor, {
        action: 'data_export.downloaded',
        entityType: 'export_job',
        entityId: row.id,
        after: { ...auditOf(row), bytes: file.size },
      }),
    );
  } catch (err) {
    (file.stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    throw err;
  }
  const params = toExportJob(row).job_params;
  return { stream: file.stream, size: file.size, fileName: exportZipName(params.fileName) };
}

/** DELETE /api/dataExport/jobs/{id}: finished jobs only; the row, its audit entry, then the file. */
export async function deleteJob(ctx: AppContext, actor: Actor, id: string) {
  const { scope, row } = await requireJob(ctx, actor, id);
  if (!canDeleteExport(row.status))
    throw new AppError(409, EXPORT_MESSAGES.cannotDelete, 'Conflict', { displayToUser: true });
  await inTransaction(ctx, async ({ db }) => {
    const gone = await repo.deleteJob(db, scope);
    if (!gone) throw new AppError(409, EXPORT_MESSAGES.cannotDelete, 'Conflict', { displayToUser: true });
    await recordActorAudit(db, actor, {
      action: 'data_export.deleted',
      entityType: 'export_job',
      entityId: id,
      before: auditOf(row),
    });
    // Inside the transaction: if removing fails, the row (and its audit entry) stay.
    if (gone.storage_key) await exportStorage(ctx.config).remove(gone.storage_key);
  });
  return { success: true, message: EXPORT_MESSAGES.deleted };
}

/**
 * POST /api/dataExport/jobs/{id}/cancel: a pending job never starts; a
 * processing one is marked cancelled at once and its worker, which checks its
 * row several times a second, stops and removes what it had written.
 */
export async function cancelJob(ctx: AppContext, actor: Actor, id: string) {
  const { scope, row } = await requireJob(ctx, actor, id);
  if (!canCancelExport(row.status))
    throw new AppError(409, EXPORT_MESSAGES.cannotCancel, 'Conflict', { displayToUser: true });
  const job = await inTransaction(ctx, async ({ db }) => {
    const done = await repo.markCancelled(db, scope, ctx.now(), EXPORT_MESSAGES.cancelledByUser);
    if (!done) throw new AppError(409, EXPORT_MESSAGES.cannotCancel, 'Conflict', { displayToUser: true });
    await recordActorAudit(db, actor, {
      action: 'data_export.cancelled',
      entityType: 'export_job',
      entityId: id,
      before: auditOf(row),
      after: { status: 'cancelled' },
    });
    return done;
  });
  return { success: true, message: EXPORT_MESSAGES.cancelled, job: toExportJob(job) };
}
