/*
 * A trial's REDCap connection (decision 048): the settings, saved only once
 * REDCap itself confirms them — the token opens the project, and every
 * field, the instrument (repeating) and the event are in its metadata — and
 * "Test connection". The token is sealed like provider tokens and never
 * answered. Every change is audited, and so is every refused save.
 */
import {
  REDCAP_MESSAGES,
  type RedcapLogEntry,
  type RedcapSettings,
  type RedcapSettingsAnswer,
  type RedcapTestResult,
  type redcapSettingsBodySchema,
  type redcapTestBodySchema,
} from '@trialwear/contract';
import type { z } from 'zod';
import { AppError } from '../../access/errors.js';
import { type Actor, requireTrial, type TrialScope } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { decryptSecret, encryptSecret, UndecryptableSecret } from '../../security/encryption.js';
import { type RedcapConnection, type RedcapResult, redcap } from './client.js';
import * as repo from './repo.js';

type Ctx = Pick<AppContext, 'db' | 'secrets' | 'now'>;
type SettingsBody = z.output<typeof redcapSettingsBodySchema>;
type FieldError = { path: string; message: string };

export function toSettings(row: repo.SettingsRow): RedcapSettings {
  return {
    apiUrl: row.api_url,
    tokenSet: true,
    recordIdField: row.record_id_field,
    emailField: row.email_field,
    instrument: row.instrument,
    eventName: row.event_name,
    dateField: row.date_field,
    fieldMap: (row.field_map ?? {}) as RedcapSettings['fieldMap'],
    pushEnabled: row.push_enabled,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** The stored token, opened; a token no configured key opens is a clear refusal, never a 500. */
export function connectionOf(ctx: Pick<AppContext, 'secrets'>, row: repo.SettingsRow): RedcapConnection {
  try {
    return { apiUrl: row.api_url, token: decryptSecret(ctx.secrets, row.token_enc) };
  } catch (err) {
    if (!(err instanceof UndecryptableSecret)) throw err;
    console.error(
      `[trialwear] the REDCap token of trial ${row.trial_id} cannot be decrypted: ${err.message}`,
    );
    throw new AppError(409, REDCAP_MESSAGES.tokenRequired, 'Conflict', {
      displayToUser: true,
      errors: [{ path: 'token', message: REDCAP_MESSAGES.tokenRequired }],
    });
  }
}

/** The trial's settings, or 409 when none are saved (push, enrol). */
export async function requireSettings(ctx: Ctx, scope: TrialScope) {
  const row = await repo.findSettings(ctx.db, scope);
  if (!row) throw new AppError(409, REDCAP_MESSAGES.notConnected, 'Conflict', { displayToUser: true });
  return { row, conn: connectionOf(ctx, row) };
}

/** REDCap's refusal (or silence) as the answer the Admin reads: 502 with REDCap's own words. */
export function upstreamError(r: Extract<RedcapResult<unknown>, { ok: false }>) {
  return new AppError(502, r.message, 'UpstreamError', { displayToUser: true });
}

export async function getSettings(ctx: Ctx, actor: Actor, trialId: number): Promise<RedcapSettingsAnswer> {
  const scope = await requireTrial(ctx, actor, trialId);
  const row = await repo.findSettings(ctx.db, scope);
  return { settings: row ? toSettings(row) : null };
}

/** The trial's last 100 pushes, newest first. */
export async function getLog(
  ctx: Ctx,
  actor: Actor,
  trialId: number,
): Promise<{ entries: RedcapLogEntry[] }> {
  const scope = await requireTrial(ctx, actor, trialId);
  const rows = await repo.listLog(ctx.db, scope);
  return {
    entries: rows.map((e) => ({
      id: e.id,
      trigger: e.trigger,
      from: e.from_date,
      to: e.to_date,
      status: e.status,
      attempt: e.attempt,
      willRetry: e.will_retry,
      records: e.records,
      rows: e.rows,
      error: e.error,
      startedAt: new Date(e.started_at).toISOString(),
      finishedAt: e.finished_at ? new Date(e.finished_at).toISOString() : null,
      startedBy: e.username,
    })),
  };
}

/** What the audit trail keeps of settings: everything but the token. */
const audited = (s: RedcapSettings | null) => (s ? { ...s, updatedAt: undefined } : undefined);

export async function saveSettings(
  ctx: Ctx,
  actor: Actor,
  trialId: number,
  body: SettingsBody,
): Promise<RedcapSettingsAnswer> {
  const scope = await requireTrial(ctx, actor, trialId);
  const stored = await repo.findSettings(ctx.db, scope);
  const refuse = async (errors: FieldError[], status = 400) => {
    // Committed on its own: the refusal is the trail's, though nothing is saved.
    await recordActorAudit(ctx.db, actor, {
      action: 'redcap.settings.refused',
      entityType: 'trial',
      entityId: trialId,
      after: { apiUrl: body.apiUrl, errors },
    });
    return new AppError(status, errors[0]!.message, status === 502 ? 'UpstreamError' : 'ValidationError', {
      displayToUser: true,
      errors,
    });
  };
  const token =
    body.token ?? (stored && stored.api_url === body.apiUrl ? connectionOf(ctx, stored).token : null);
  if (!token) throw await refuse([{ path: 'token', message: REDCAP_MESSAGES.tokenRequired }]);
  const conn = { apiUrl: body.apiUrl, token };
  const problems = await checkAgainstProject(conn, body);
  if (problems.upstream) {
    // A wrong token or URL is the Admin's input: a 400 on the field it concerns.
    const r = problems.upstream;
    const path = r.status === 401 || r.status === 403 ? 'token' : 'apiUrl';
    throw await refuse([{ path, message: r.message }], r.status === 0 || r.status >= 500 ? 502 : 400);
  }
  if (problems.errors.length) throw await refuse(problems.errors);

  return inTransaction(ctx, async (tx) => {
    const before = await repo.lockSettings(tx.db, scope);
    // The settings were removed meanwhile: there is no stored token to keep.
    if (!before && !body.token)
      throw new AppError(400, REDCAP_MESSAGES.tokenRequired, 'ValidationError', {
        displayToUser: true,
        errors: [{ path: 'token', message: REDCAP_MESSAGES.tokenRequired }],
      });
    await repo.saveSettings(
      tx.db,
      scope,
      {
        api_url: body.apiUrl,
        token_enc: body.token ? encryptSecret(ctx.secrets.encryptionKey, body.token) : before!.token_enc,
        record_id_field: body.recordIdField,
        email_field: body.emailField,
        instrument: body.instrument,
        event_name: body.eventName,
        date_field: body.dateField,
        field_map: body.fieldMap as Record<string, string>,
        push_enabled: body.pushEnabled,
      },
      actor.userId,
      ctx.now(),
    );
    const after = toSettings((await repo.findSettings(tx.db, scope))!);
    await recordActorAudit(tx.db, actor, {
      action: before ? 'redcap.settings.updated' : 'redcap.settings.created',
      entityType: 'trial',
      entityId: trialId,
      before: audited(before ? toSettings(before) : null),
      after: { ...audited(after), tokenChanged: body.token !== null },
    });
    return { settings: after };
  });
}

/**
 * The settings against the project as REDCap describes it: the record id is
 * the project's first field, every named field exists, the date and the
 * mapped metrics are on the instrument, the instrument repeats (in the
 * event, for a longitudinal project), the event exists. Each problem names
 * the field it is about.
 */
async function checkAgainstProject(
  conn: RedcapConnection,
  body: SettingsBody,
): Promise<{ upstream?: Extract<RedcapResult<unknown>, { ok: false }>; errors: FieldError[] }> {
  const project = await redcap.project(conn);
  if (!project.ok) return { upstream: project, errors: [] };
  const metadata = await redcap.metadata(conn);
  if (!metadata.ok) return { upstream: metadata, errors: [] };
  const errors: FieldError[] = [];
  const fields = new Map(metadata.data.map((f) => [f.field_name, f]));
  const forms = new Set(metadata.data.map((f) => f.form_name));
  const longitudinal = Number(project.data.is_longitudinal) === 1;
  const need = (path: string, name: string) => {
    const f = fields.get(name);
    if (!f) errors.push({ path, message: REDCAP_MESSAGES.unknownField(name) });
    return f;
  };
  need('recordIdField', body.recordIdField);
  if (fields.has(body.recordIdField) && metadata.data[0]?.field_name !== body.recordIdField)
    errors.push({
      path: 'recordIdField',
      message: `The field "${body.recordIdField}" is not the project's record id field ("${metadata.data[0]!.field_name}").`,
    });
  if (body.emailField) need('emailField', body.emailField);
  const instrumentKnown = forms.has(body.instrument);
  if (!instrumentKnown)
    errors.push({ path: 'instrument', message: REDCAP_MESSAGES.unknownInstrument(body.instrument) });
  const onInstrument = (path: string, name: string) => {
    const f = need(path, name);
    if (f && instrumentKnown && f.form_name !== body.instrument)
      errors.push({ path, message: REDCAP_MESSAGES.notOnInstrument(name, body.instrument) });
    return f;
  };
  const date = onInstrument('dateField', body.dateField);
  if (date && !(date.text_validation_type_or_show_slider_number ?? '').startsWith('date_'))
    errors.push({ path: 'dateField', message: REDCAP_MESSAGES.dateFieldNotDate(body.dateField) });
  const seen = new Set([body.dateField]);
  for (const [metric, field] of Object.entries(body.fieldMap)) {
    if (!field) continue;
    if (seen.has(field))
      errors.push({ path: `fieldMap.${metric}`, message: REDCAP_MESSAGES.sameField(field) });
    seen.add(field);
    onInstrument(`fieldMap.${metric}`, field);
  }
  let eventKnown = !longitudinal;
  if (longitudinal) {
    if (!body.eventName) errors.push({ path: 'eventName', message: REDCAP_MESSAGES.eventRequired });
    else {
      const events = await redcap.events(conn);
      if (!events.ok) return { upstream: events, errors };
      eventKnown = events.data.some((e) => e.unique_event_name === body.eventName);
      if (!eventKnown)
        errors.push({ path: 'eventName', message: REDCAP_MESSAGES.unknownEvent(body.eventName) });
    }
  } else if (body.eventName) errors.push({ path: 'eventName', message: REDCAP_MESSAGES.eventNotAllowed });
  if (instrumentKnown && eventKnown) {
    // REDCap answers an error, not [], for a project without repeating instruments.
    const repeating =
      Number(project.data.has_repeating_instruments_or_events) === 1
        ? await redcap.repeatingForms(conn)
        : null;
    if (repeating && !repeating.ok && repeating.status !== 400) return { upstream: repeating, errors };
    const list = repeating?.ok ? repeating.data : [];
    if (
      !list.some((r) => r.form_name === body.instrument && (!longitudinal || r.event_name === body.eventName))
    )
      errors.push({ path: 'instrument', message: REDCAP_MESSAGES.notRepeating(body.instrument) });
  }
  return { errors };
}

/** Test connection: reads content=project with the given URL and token, else the stored ones. */
export async function testConnection(
  ctx: Ctx,
  actor: Actor,
  trialId: number,
  body: z.output<typeof redcapTestBodySchema>,
): Promise<RedcapTestResult> {
  const scope = await requireTrial(ctx, actor, trialId);
  const stored = await repo.findSettings(ctx.db, scope);
  const apiUrl = body.apiUrl ?? stored?.api_url;
  const token =
    body.token ??
    (stored && (!body.apiUrl || body.apiUrl === stored.api_url) ? connectionOf(ctx, stored).token : null);
  if (!apiUrl || !token)
    return {
      ok: false,
      message: token ? REDCAP_MESSAGES.apiUrlInvalid : REDCAP_MESSAGES.tokenRequired,
      project: null,
    };
  const r = await redcap.project({ apiUrl, token });
  const result: RedcapTestResult = r.ok
    ? {
        ok: true,
        message: REDCAP_MESSAGES.tested(
          r.data.project_title,
          Number(r.data.project_id),
          Number(r.data.is_longitudinal) === 1,
        ),
        project: {
          projectId: Number(r.data.project_id),
          title: String(r.data.project_title),
          isLongitudinal: Number(r.data.is_longitudinal) === 1,
          hasRepeatingInstruments: Number(r.data.has_repeating_instruments_or_events) === 1,
        },
      }
    : { ok: false, message: r.message, project: null };
  await recordActorAudit(ctx.db, actor, {
    action: 'redcap.connection.tested',
    entityType: 'trial',
    entityId: trialId,
    after: { apiUrl, ok: result.ok, message: result.message },
  });
  return result;
}
