/*
 * Pushing daily summaries to REDCap (decision 048). Per participant whose
 * code suffix is a record of the project and per participant-local day
 * with a value, one instance of the trial's repeating instrument: the date
 * in the date field, each mapped metric in its field (blank when the day
 * has none), sent with content=record, action=import,
 * overwriteBehavior=overwrite. The instance of a day is the one REDCap
 * already holds with that date in the date field, else the record's next:
 * so pushing a day again overwrites the same instance (twice run = the same
 * records), and instances typed in REDCap by hand are never overwritten by
 * another day. Records are never created by a push. One push per trial at a
 * time (a lease on the settings row); each push is a log row the Admin sees
 * and an audit row. When a push has finished (done or failed), its trial's
 * study-health alerts are evaluated at once, so the redcapPush alert opens
 * or closes with it, not at the next hourly evaluation.
 */
import { REDCAP_MESSAGES, type RedcapMetric, type RedcapPushResult } from '@trialwear/contract';
import { AppError } from '../../access/errors.js';
import { type Actor, requireTrial, type TrialScope } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { evaluateTrialAlerts } from '../../jobs/study-health/evaluate-alerts.js';
import { type RedcapResult, redcap } from './client.js';
import * as repo from './repo.js';
import { connectionOf, upstreamError } from './service.js';

type Ctx = Pick<AppContext, 'db' | 'secrets' | 'now'>;

/** Longer than any push takes; a crashed process's lease runs out by itself. */
const LEASE_SECONDS = 900;
/** Rows per import call: whole records only, so REDCap's per-call record counts add up. */
const ROWS_PER_CALL = 500;

export interface PushRequest {
  trigger: 'manual' | 'nightly';
  from: string;
  to: string;
  attempt: number;
  userId: number | null;
  /** A transient failure of this push will be tried again (the nightly job's back-off). */
  retriesLeft: boolean;
}

export class PushFailed extends Error {
  constructor(
    readonly failure: Extract<RedcapResult<unknown>, { ok: false }>,
    readonly logId: number,
  ) {
    super(failure.message);
  }
}

const formatValue = (v: number | null) => (v === null ? '' : String(v));

/**
 * Runs one push. Refusals (no settings, a push already running) are
 * AppErrors; REDCap's failure is a PushFailed after its log row is written.
 */
export async function pushDailySummaries(
  ctx: AppContext,
  scope: TrialScope,
  req: PushRequest,
): Promise<RedcapPushResult> {
  const row = await repo.findSettings(ctx.db, scope);
  if (!row) throw new AppError(409, REDCAP_MESSAGES.notConnected, 'Conflict', { displayToUser: true });
  const conn = connectionOf(ctx, row);
  if (!(await repo.claimPushLease(ctx.db, scope, LEASE_SECONDS)))
    throw new AppError(409, REDCAP_MESSAGES.pushRunning, 'Conflict', { displayToUser: true });
  const logId = await repo.startLogEntry(ctx.db, scope, req);
  const audit = (action: string, after: Record<string, unknown>) =>
    recordAudit(ctx.db, {
      userId: req.userId,
      teamId: scope.teamId,
      action,
      entityType: 'trial',
      entityId: scope.trialId,
      after: { trigger: req.trigger, from: req.from, to: req.to, attempt: req.attempt, ...after },
    });
  try {
    const sent = await send(ctx, scope, row, conn, req);
    if (!sent.ok) {
      const willRetry = sent.transient && req.retriesLeft;
      await repo.finishLogEntry(ctx.db, scope, logId, { status: 'failed', error: sent.message, willRetry });
      await audit('redcap.push.failed', { error: sent.message, willRetry });
      throw new PushFailed(sent, logId);
    }
    await repo.finishLogEntry(ctx.db, scope, logId, {
      status: 'done',
      records: sent.records,
      rows: sent.rows,
    });
    await audit('redcap.push', { records: sent.records, rows: sent.rows, notInRedcap: sent.notInRedcap });
    const skipped = sent.notInRedcap.length
      ? ` ${sent.notInRedcap.length} participant${sent.notInRedcap.length === 1 ? ' has' : 's have'} no record in REDCap (${sent.notInRedcap.slice(0, 10).join(', ')}${sent.notInRedcap.length > 10 ? ', …' : ''}) and ${sent.notInRedcap.length === 1 ? 'was' : 'were'} skipped.`
      : '';
    return {
      records: sent.records,
      rows: sent.rows,
      message: REDCAP_MESSAGES.pushed(sent.records, sent.rows) + skipped,
    };
  } catch (err) {
    if (!(err instanceof PushFailed)) {
      const message = err instanceof Error ? err.message : String(err);
      await repo
        .finishLogEntry(ctx.db, scope, logId, {
          status: 'failed',
          error: message,
          willRetry: req.retriesLeft,
        })
        .catch(() => {});
    }
    throw err;
  } finally {
    await repo.releasePushLease(ctx.db, scope).catch(() => {});
    await alertsAfterPush(ctx, scope);
  }
}

/**
 * The trial's study-health alerts evaluated now that its push finished (the redcapPush rule). Its
 * own failure does not change the push's answer: the hourly evaluation does it again.
 */
async function alertsAfterPush(ctx: AppContext, scope: TrialScope) {
  try {
    await evaluateTrialAlerts(ctx, scope);
  } catch (err) {
    console.error(
      `[trialwear] study health: alerts of trial ${scope.trialId} not evaluated after its REDCap push: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

async function send(
  ctx: Ctx,
  scope: TrialScope,
  s: repo.SettingsRow,
  conn: ReturnType<typeof connectionOf>,
  req: PushRequest,
): Promise<
  | { ok: true; records: number; rows: number; notInRedcap: string[] }
  | Extract<RedcapResult<unknown>, { ok: false }>
> {
  const days = await repo.dailySummaries(ctx.db, scope, req.from, req.to);
  const fieldMap = (s.field_map ?? {}) as Partial<Record<RedcapMetric, string>>;
  const mapped = Object.entries(fieldMap).filter((e): e is [RedcapMetric, string] => !!e[1]);
  const withValues = days.filter((d) => mapped.some(([metric]) => d[metric] !== null));
  const recordIds = [...new Set(withValues.map((d) => d.record_id))];
  if (recordIds.length === 0) {
    // Still a call: a wrong token is told now, not on the first day with data.
    const check = await redcap.project(conn);
    return check.ok ? { ok: true, records: 0, rows: 0, notInRedcap: [] } : check;
  }
  // The records as REDCap holds them, with the instrument's instances and their dates.
  const existing = await redcap.exportRecords(conn, {
    fields: [s.record_id_field, s.date_field],
    records: recordIds,
    ...(s.event_name ? { events: [s.event_name] } : {}),
  });
  if (!existing.ok) return existing;
  const known = new Set<string>();
  const instances = new Map<string, { byDate: Map<string, number>; max: number }>();
  for (const r of existing.data) {
    const record = String(r[s.record_id_field] ?? '');
    known.add(record);
    if (r.redcap_repeat_instrument !== s.instrument) continue;
    if (s.event_name && r.redcap_event_name !== s.event_name) continue;
    const n = Number(r.redcap_repeat_instance);
    const entry = instances.get(record) ?? { byDate: new Map(), max: 0 };
    const date = String(r[s.date_field] ?? '');
    if (date && !entry.byDate.has(date)) entry.byDate.set(date, n);
    entry.max = Math.max(entry.max, n);
    instances.set(record, entry);
  }
  const byRecord = new Map<string, Record<string, string | number>[]>();
  for (const d of withValues) {
    if (!known.has(d.record_id)) continue;
    const entry = instances.get(d.record_id) ?? { byDate: new Map(), max: 0 };
    instances.set(d.record_id, entry);
    let instance = entry.byDate.get(d.local_date);
    if (instance === undefined) {
      instance = ++entry.max;
      entry.byDate.set(d.local_date, instance);
    }
    const out: Record<string, string | number> = {
      [s.record_id_field]: d.record_id,
      ...(s.event_name ? { redcap_event_name: s.event_name } : {}),
      redcap_repeat_instrument: s.instrument,
      redcap_repeat_instance: instance,
      [s.date_field]: d.local_date,
    };
    for (const [metric, field] of mapped) out[field] = formatValue(d[metric]);
    byRecord.set(d.record_id, [...(byRecord.get(d.record_id) ?? []), out]);
  }
  let records = 0;
  let rows = 0;
  let batch: Record<string, string | number>[] = [];
  const flush = async () => {
    if (batch.length === 0) return null;
    const r = await redcap.importRecords(conn, batch);
    if (!r.ok) return r;
    records += Number(r.data.count) || 0;
    rows += batch.length;
    batch = [];
    return null;
  };
  for (const recordRows of byRecord.values()) {
    if (batch.length && batch.length + recordRows.length > ROWS_PER_CALL) {
      const failed = await flush();
      if (failed) return failed;
    }
    batch.push(...recordRows);
  }
  const failed = await flush();
  if (failed) return failed;
  const notInRedcap = recordIds.filter((id) => !known.has(id));
  return { ok: true, records, rows, notInRedcap };
}

/** The manual push (POST …/redcap/push): REDCap's failure is the Admin's clear 502, already in the log. */
export async function manualPush(
  ctx: AppContext,
  actor: Actor,
  trialId: number,
  dates: { from: string; to: string },
) {
  const scope = await requireTrial(ctx, actor, trialId);
  try {
    return await pushDailySummaries(ctx, scope, {
      trigger: 'manual',
      ...dates,
      attempt: 1,
      userId: actor.userId,
      retriesLeft: false,
    });
  } catch (err) {
    if (err instanceof PushFailed) throw upstreamError(err.failure);
    throw err;
  }
}
