/*
 * Enrolling from REDCap (decision 048): the project's records (content=
 * record, action=export, the record id and email fields) as participants of
 * the trial, the record id being the participant code's suffix. A record
 * whose code the trial has is `unchanged`, or `update` when REDCap holds
 * another email for it; any other record is checked as a new participant
 * by the add call's own rules (checkNewParticipants: the schema's messages,
 * codes and emails taken, the team's limit) and is `create` or `refused`.
 * As the file import (decision 045), the preview answers a digest of its
 * verdicts and the apply, evaluating again under the team's lock, changes
 * everything previewed in one transaction or nothing.
 */
import { createHash } from 'node:crypto';
import {
  addParticipantSchema,
  effectiveHiddenFields,
  PARTICIPANT_MESSAGES,
  participantEmailSchema,
  REDCAP_MESSAGES,
  type RedcapEnrolApplyResult,
  type RedcapEnrolPreview,
  type RedcapEnrolRow,
} from '@trialwear/contract';
import { AppError } from '../../access/errors.js';
import { type Actor, teamScope } from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit, recordAudits } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import {
  checkNewParticipants,
  insertNewParticipants,
  type NewParticipantInput,
  type Refusal,
} from '../participants/new-participants.js';
import { countTeamParticipants, takenEmails } from '../participants/repo.js';
import { lockTeamForLimits } from '../teams/service.js';
import { requireVisibleTrial } from '../trials/service.js';
import { redcap } from './client.js';
import * as repo from './repo.js';
import { requireSettings, upstreamError } from './service.js';

type Ctx = AppContext;
interface RedcapRecord {
  recordId: string;
  email: string | null;
}

/** The project's records, one per record id (a longitudinal record's first non-blank email). */
async function exportRecords(ctx: Ctx, actor: Actor, trialId: number): Promise<RedcapRecord[]> {
  const { scope } = await requireVisibleTrial(ctx, actor, trialId);
  const { row, conn } = await requireSettings(ctx, scope);
  const fields = [row.record_id_field, ...(row.email_field ? [row.email_field] : [])];
  const r = await redcap.exportRecords(conn, { fields });
  if (!r.ok) throw upstreamError(r);
  const byId = new Map<string, RedcapRecord>();
  for (const rec of r.data) {
    if (rec.redcap_repeat_instrument) continue;
    const recordId = String(rec[row.record_id_field] ?? '').trim();
    const email = row.email_field ? String(rec[row.email_field] ?? '').trim() || null : null;
    const seen = byId.get(recordId);
    if (!seen) byId.set(recordId, { recordId, email });
    else if (!seen.email && email) seen.email = email;
  }
  return [...byId.values()];
}

/** Every record's verdict, under the team's lock, in the caller's transaction. */
async function evaluate(tx: Ctx, actor: Actor, trialId: number, exported: RedcapRecord[]) {
  const team = await lockTeamForLimits(tx, teamScope(actor));
  const { scope, row: trial } = await requireVisibleTrial(tx, actor, trialId);
  const hidden = effectiveHiddenFields(team.hidden_participant_fields);
  // A team that keeps no participant emails neither stores nor shows REDCap's.
  const records = hidden.includes('email') ? exported.map((r) => ({ ...r, email: null })) : exported;
  const code = (id: string) => `${trial.trial_code}-${id}`;
  const enrolled = new Map(
    (
      await repo.participantsByCode(
        tx.db,
        scope,
        records.map((r) => code(r.recordId)),
      )
    ).map((p) => [p.participant_code!, p]),
  );
  const updates = records.filter((r) => {
    const p = enrolled.get(code(r.recordId));
    return p && r.email && !hidden.includes('email') && p.email.toLowerCase() !== r.email.toLowerCase();
  });
  const emailsTaken = await takenEmails(
    tx.db,
    teamScope(actor),
    updates.map((r) => r.email!),
  );
  const fresh = records.filter((r) => !enrolled.has(code(r.recordId)));
  // An email an enrolled participant takes from REDCap is not also a new participant's.
  const updatedTo = new Map(updates.map((r) => [r.email!.toLowerCase(), r.recordId]));
  const inputs = fresh.map((r, i): NewParticipantInput & { earlier: Refusal[] } => {
    const earlier: Refusal[] = [];
    if (!r.recordId)
      earlier.push({
        status: 400,
        reason: 'ValidationError',
        path: 'recordId',
        message: REDCAP_MESSAGES.noRecordId,
      });
    const taker = r.email ? updatedTo.get(r.email.toLowerCase()) : undefined;
    if (taker)
      earlier.push({
        status: 409,
        reason: 'EmailTaken',
        path: 'email',
        message: REDCAP_MESSAGES.emailTwice(taker),
      });
    const parsed = addParticipantSchema.safeParse({ trialId, codeSuffix: r.recordId, email: r.email ?? '' });
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        earlier.push({
          status: 400,
          reason: 'ValidationError',
          path: issue.path.join('.'),
          message: issue.message,
        });
    const codeSuffix = parsed.success ? parsed.data.codeSuffix : null;
    return { gender: 'None', age: null, email: r.email ?? '', notes: '', codeSuffix, row: i + 1, earlier };
  });
  const checked = await checkNewParticipants(
    tx.db,
    { team: teamScope(actor), trial: scope, trialCode: trial.trial_code },
    team,
    inputs,
    {
      email: (row) => REDCAP_MESSAGES.emailTwice(fresh[row - 1]!.recordId),
      code: (row) => REDCAP_MESSAGES.codeTwice(fresh[row - 1]!.recordId),
    },
  );
  const checkedOf = new Map(fresh.map((r, i) => [r, checked[i]!]));
  const rows: RedcapEnrolRow[] = records.map((r) => {
    const p = enrolled.get(code(r.recordId));
    if (p) {
      const update = updates.includes(r);
      const errors: RedcapEnrolRow['errors'] = [];
      if (update) {
        const parsed = participantEmailSchema.safeParse(r.email);
        if (!parsed.success) errors.push({ path: 'email', message: parsed.error.issues[0]!.message });
        else if (emailsTaken.has(r.email!.toLowerCase()))
          errors.push({ path: 'email', message: PARTICIPANT_MESSAGES.emailTaken });
      }
      return {
        recordId: r.recordId,
        email: r.email,
        participantCode: p.participant_code,
        verdict: errors.length ? 'refused' : update ? 'update' : 'unchanged',
        currentEmail: update ? (hidden.includes('email') ? null : p.email) : null,
        errors,
      };
    }
    const c = checkedOf.get(r)!;
    return {
      recordId: r.recordId,
      email: r.email,
      participantCode: c.values.code,
      verdict: c.refusals.length ? 'refused' : 'create',
      currentEmail: null,
      errors: c.refusals.map(({ path, message }) => ({ path, message })),
    };
  });
  return { scope, team, rows, records, checkedOf, enrolled, code };
}

function digestOf(trialId: number, rows: RedcapEnrolRow[]) {
  const shown = rows.map((r) => [
    r.recordId,
    r.email,
    r.verdict,
    r.participantCode,
    r.errors.map((e) => e.message),
  ]);
  return createHash('sha256')
    .update(JSON.stringify([trialId, shown]))
    .digest('hex');
}

const countsOf = (rows: RedcapEnrolRow[]) => ({
  create: rows.filter((r) => r.verdict === 'create').length,
  update: rows.filter((r) => r.verdict === 'update').length,
  unchanged: rows.filter((r) => r.verdict === 'unchanged').length,
  refused: rows.filter((r) => r.verdict === 'refused').length,
});

export async function previewEnrol(ctx: Ctx, actor: Actor, trialId: number): Promise<RedcapEnrolPreview> {
  const records = await exportRecords(ctx, actor, trialId);
  return inTransaction(ctx, async (tx) => {
    const { team, rows } = await evaluate(tx, actor, trialId, records);
    return {
      rows,
      counts: countsOf(rows),
      maxParticipants: team.max_participants,
      teamParticipants: await countTeamParticipants(tx.db, teamScope(actor)),
      previewDigest: digestOf(trialId, rows),
    };
  });
}

export async function applyEnrol(
  ctx: Ctx,
  actor: Actor,
  trialId: number,
  previewDigest: string,
): Promise<RedcapEnrolApplyResult> {
  const exported = await exportRecords(ctx, actor, trialId);
  const outcome = await inTransaction(ctx, async (tx) => {
    const evaluated = await evaluate(tx, actor, trialId, exported);
    const { scope, rows, records, checkedOf, enrolled, code } = evaluated;
    if (digestOf(trialId, rows) !== previewDigest)
      return { changed: rows.filter((r) => r.verdict === 'refused') };
    const creating = records.flatMap((r, i) =>
      rows[i]!.verdict === 'create' ? [{ ...checkedOf.get(r)!.values, row: i, recordId: r.recordId }] : [],
    );
    const created = await insertNewParticipants(tx.db, actor, scope, trialId, creating, (i) => ({
      import: 'redcap',
      redcapRecordId: creating[i]!.recordId,
    }));
    const updating = records.filter((_, i) => rows[i]!.verdict === 'update');
    for (const r of updating) {
      const p = enrolled.get(code(r.recordId))!;
      await repo.setParticipantEmail(tx.db, scope, p.id, r.email!);
    }
    const who = { userId: actor.userId, teamId: actor.teamId, requestId: actor.requestId, ip: actor.ip };
    await recordAudits(tx.db, [
      ...updating.map((r) => {
        const p = enrolled.get(code(r.recordId))!;
        return {
          ...who,
          action: 'participant.update',
          entityType: 'participant',
          entityId: p.id,
          before: { email: p.email },
          after: { email: r.email, import: 'redcap', redcapRecordId: r.recordId },
        };
      }),
      {
        ...who,
        action: 'redcap.enrol',
        entityType: 'trial',
        entityId: trialId,
        after: {
          records: records.length,
          ...countsOf(rows),
          refusedRecords: rows.filter((r) => r.verdict === 'refused').map((r) => r.recordId),
        },
      },
    ]);
    return {
      changed: [],
      result: {
        created: created.map((c, i) => ({
          recordId: creating[i]!.recordId,
          participantId: c.participantId,
          participantCode: c.participant_code!,
        })),
        updated: updating.length,
        message: REDCAP_MESSAGES.enrolled(created.length, updating.length),
      },
    };
  });
  if (outcome.result) return outcome.result;
  const refused = outcome.changed;
  // Nothing changed; the refusal is the trail's.
  await recordActorAudit(ctx.db, actor, {
    action: 'redcap.enrol.refused',
    entityType: 'trial',
    entityId: trialId,
    after: { reason: 'preview changed', refused: refused.length },
  });
  throw new AppError(409, REDCAP_MESSAGES.enrolChanged(refused.length), 'Conflict', {
    displayToUser: true,
    errors: refused.flatMap((r) =>
      r.errors.map((e) => ({ path: `record ${r.recordId}: ${e.path}`, message: e.message })),
    ),
  });
}
