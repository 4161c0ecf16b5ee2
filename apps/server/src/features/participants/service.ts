/*
 * Participants. The team's hidden-fields setting is applied here, on the
 * server: a hidden email or notes value is never sent to the browser, and a
 * hidden email is replaced by a placeholder when a participant is added.
 */
import {
  effectiveHiddenFields,
  type HiddenField,
  PARTICIPANT_MESSAGES,
  type Participant,
  type ParticipantSync,
  participantEmailSchema,
  TRIAL_MESSAGES,
} from '@trialwear/contract';
import { AppError, notFound } from '../../access/errors.js';
import {
  type Actor,
  type ParticipantScope,
  requireParticipant,
  teamScope,
  visibleTrials,
} from '../../access/index.js';
import type { AppContext } from '../../app-context.js';
import { recordActorAudit } from '../../audit/audit-log.js';
import { inTransaction } from '../../db/transaction.js';
import { lockTeamForLimits } from '../teams/service.js';
import { listTrials, requireVisibleTrial } from '../trials/service.js';
import {
  type CheckedParticipant,
  checkNewParticipants,
  type NewParticipantInput,
  type Refusal,
} from './new-participants.js';
import * as repo from './repo.js';

type Gender = repo.NewParticipant['gender'];

function present(row: Omit<repo.ParticipantRow, 'team_id'>, hidden: HiddenField[]): Participant {
  return {
    id: row.id,
    trialId: row.trial_id,
    ...(hidden.includes('email') ? {} : { email: row.email }),
    gender: row.gender,
    age: row.age,
    ...(hidden.includes('notes') ? {} : { notes: row.notes ?? '' }),
    participant_code: row.participant_code,
    participant_code_suffix: row.participant_code_suffix,
    created_at: row.created_at,
  };
}

/** List rows: each participant as presented, with the providers of their authorized links and their sync health. */
const listed = (
  rows: repo.ParticipantListRow[],
  devices: Map<number, string[]>,
  sync: Map<number, unknown>,
  hidden: HiddenField[],
) =>
  rows.map((r) => ({
    ...present(r, hidden),
    authorized_devices: devices.get(r.id) ?? [],
    sync: sync.get(r.id) as ParticipantSync,
  }));

const audit = (
  ctx: AppContext,
  actor: Actor,
  action: string,
  entityId: number,
  before?: unknown,
  after?: unknown,
) => recordActorAudit(ctx.db, actor, { action, entityType: 'participant', entityId, before, after });

const validationError = (path: string, message: string) =>
  new AppError(400, message, 'ValidationError', { displayToUser: true, errors: [{ path, message }] });

/** Unique-index races (two adds at once) end as the same 409s as the checks; a trial gone meanwhile as its 404. */
export function mapUniqueViolation(err: unknown, code: string | null): never {
  const e = err as { code?: string; constraint?: string };
  if (e.code === '23505' && e.constraint === 'participants_trial_code_key') {
    throw new AppError(409, codeTakenMessage(code), 'CodeTaken', { displayToUser: true });
  }
  if (e.code === '23505' && e.constraint === 'participants_team_email_key') {
    throw new AppError(409, PARTICIPANT_MESSAGES.emailTaken, 'EmailTaken', { displayToUser: true });
  }
  if (e.code === '23503' && e.constraint === 'participants_team_id_trial_id_fkey') {
    throw notFound(TRIAL_MESSAGES.notFound); // the trial was deleted meanwhile
  }
  throw err;
}

const codeTakenMessage = (code: string | null) =>
  code ? `Participant code ${code} is already taken in this trial.` : PARTICIPANT_MESSAGES.codeTaken;

/**
 * Every participant of the trials the actor sees in the session's team (the
 * trial visibility rule of listTrials), hidden fields left out on the server.
 */
export async function listVisibleParticipants(ctx: AppContext, actor: Actor) {
  const scope = visibleTrials(actor);
  const hidden = [...actor.hiddenParticipantFields];
  const [trials, rows, devices, sync] = await Promise.all([
    listTrials(ctx, actor),
    repo.listParticipantsOfTrials(ctx.db, scope),
    repo.authorizedProvidersOfTrials(ctx.db, scope),
    repo.syncHealthOfTrials(ctx.db, scope, ctx.now()),
  ]);
  return { hiddenFields: hidden, trials, participants: listed(rows, devices, sync, hidden) };
}

/** One page of the list (optional: without it the whole list, as the spec's page expects). */
export interface Paging {
  page: number;
  pageSize: number;
}

/**
 * The answer of GET /api/trialParticipants/{trialId} as JSON text (the
 * contract's trialParticipantsSchema): the participants' JSON comes from
 * PostgreSQL (repo.trialParticipantsJson) and is passed through as is.
 */
export function listAnswerJson(
  hidden: HiddenField[],
  participantsJson: string,
  page?: Paging & { total: number },
) {
  const paging = page ? `,"page":${page.page},"pageSize":${page.pageSize},"total":${page.total}` : '';
  return `{"hiddenFields":${JSON.stringify(hidden)},"participants":${participantsJson}${paging}}`;
}

/**
 * The trial's participants if the actor may see the trial (404 otherwise),
 * without the fields the team hides (from the session: one query in all):
 * all of them, or those matching `query.filter` in `query.sort`'s order, one
 * page of them with the number matching when `query.page` asks (decision 040).
 */
export async function listParticipantsJson(
  ctx: AppContext,
  actor: Actor,
  trialId: number,
  query: repo.ParticipantListWindow = {},
) {
  const hidden = [...actor.hiddenParticipantFields];
  const now = ctx.now().toISOString();
  const row = await repo.trialParticipantsJson(ctx.db, {
    scope: visibleTrials(actor),
    trialId,
    hidden,
    ...query,
    now,
  });
  if (!row) throw notFound(TRIAL_MESSAGES.notFound);
  return listAnswerJson(hidden, row.participants, query.page && { ...query.page, total: row.total });
}

/**
 * The participant if the actor may see it (404 otherwise), with its scope;
 * `forUpdate` locks its row for the transaction, so an edit, code change or
 * delete racing a delete of the same participant finds it gone (404).
 */
export async function getParticipant(
  ctx: Pick<AppContext, 'db'>,
  actor: Actor,
  participantId: number,
  opts: { forUpdate?: boolean } = {},
): Promise<{ scope: ParticipantScope; row: repo.ParticipantRow }> {
  const scope = await requireParticipant(ctx, actor, participantId, opts);
  const row = await repo.findParticipant(ctx.db, scope);
  if (!row) throw notFound(PARTICIPANT_MESSAGES.notFound);
  return { scope, row };
}

export async function addParticipant(
  ctx: AppContext,
  actor: Actor,
  input: { trialId: number } & Omit<NewParticipantInput, 'row'>,
) {
  return inTransaction(ctx, async (tx) => {
    // First: the team's lock, so that concurrent adds count one after another (the limit is exact)
    // and a trial deleted meanwhile (removeTrial takes the same lock) is seen as gone (404).
    const teamRow = await lockTeamForLimits(tx, teamScope(actor));
    const { scope: trialScope, row: trial } = await requireVisibleTrial(tx, actor, input.trialId);
    const hidden = effectiveHiddenFields(teamRow.hidden_participant_fields);
    const scopes = { team: teamScope(actor), trial: trialScope, trialCode: trial.trial_code };
    const [{ values, refusals }] = (await checkNewParticipants(tx.db, scopes, teamRow, [input])) as [
      CheckedParticipant,
    ];
    if (refusals[0]) throw refusalError(refusals[0]);
    const id = await repo
      .insertParticipant(tx.db, trialScope, values)
      .catch((err) => mapUniqueViolation(err, values.code));
    const { row } = await getParticipant(tx, actor, id);
    await audit(tx, actor, 'participant.create', id, undefined, present(row, []));
    return {
      participantId: id,
      participant_code: values.code,
      participant_code_suffix: input.codeSuffix,
      participant: present(row, hidden),
    };
  });
}

/** A refusal of the rules as the add-participant call answers it. */
export function refusalError({ status, reason, path, message }: Refusal) {
  return status === 400
    ? validationError(path, message)
    : new AppError(status, message, reason, { displayToUser: true });
}

export async function editParticipant(
  ctx: AppContext,
  actor: Actor,
  input: { id: number; gender?: Gender; age: number | null; email?: string; notes?: string },
) {
  return inTransaction(ctx, async (tx) => {
    const { scope, row: before } = await getParticipant(tx, actor, input.id, { forUpdate: true });
    // The team's setting as the session resolved it for this request: no second query.
    const hidden = [...actor.hiddenParticipantFields];
    const fields: Parameters<typeof repo.updateParticipant>[2] = { age: input.age };
    if (input.gender !== undefined) fields.gender = input.gender;
    if (input.email !== undefined) {
      if (hidden.includes('email'))
        throw validationError('email', 'Email is hidden for this team and cannot be changed.');
      const parsed = participantEmailSchema.safeParse(input.email);
      if (!parsed.success) throw validationError('email', parsed.error.issues[0]!.message);
      if (await repo.emailTakenInTeam(tx.db, teamScope(actor), parsed.data, input.id)) {
        throw new AppError(409, PARTICIPANT_MESSAGES.emailTaken, 'EmailTaken', { displayToUser: true });
      }
      fields.email = parsed.data;
    }
    if (input.notes !== undefined) {
      if (hidden.includes('notes'))
        throw validationError('notes', 'Notes are hidden for this team and cannot be changed.');
      fields.notes = input.notes || null;
    }
    await repo.updateParticipant(tx.db, scope, fields).catch((err) => mapUniqueViolation(err, null));
    const after = (await repo.findParticipant(tx.db, scope))!;
    await audit(tx, actor, 'participant.update', input.id, present(before, []), present(after, []));
    return present(after, hidden);
  });
}

export async function changeParticipantCode(
  ctx: AppContext,
  actor: Actor,
  trialId: number,
  participantId: number,
  suffix: string | null,
) {
  return inTransaction(ctx, async (tx) => {
    const message = PARTICIPANT_MESSAGES.codeNotFound;
    const scope = await requireParticipant(tx, actor, participantId, { forUpdate: true, message });
    if (scope.trialId !== trialId) throw notFound(message);
    const row = await repo.findParticipant(tx.db, scope);
    const { scope: trialScope, row: trial } = await requireVisibleTrial(tx, actor, trialId).catch(() => {
      throw notFound(message);
    });
    if (!row) throw notFound(message);
    const code = suffix === null ? null : `${trial.trial_code}-${suffix}`;
    if (code === row.participant_code) return { participant_code: code, changed: false };
    if (code && (await repo.codeTakenInTrial(tx.db, trialScope, code, participantId))) {
      throw new AppError(409, codeTakenMessage(code), 'CodeTaken', { displayToUser: true });
    }
    await repo.setParticipantCode(tx.db, scope, suffix, code).catch((err) => mapUniqueViolation(err, code));
    await audit(
      tx,
      actor,
      code ? 'participant.code.change' : 'participant.code.clear',
      participantId,
      { participant_code: row.participant_code },
      { participant_code: code },
    );
    return { participant_code: code, changed: true };
  });
}

export async function removeParticipant(ctx: AppContext, actor: Actor, participantId: number) {
  return inTransaction(ctx, async (tx) => {
    const { scope, row: before } = await getParticipant(tx, actor, participantId, { forUpdate: true });
    await repo.deleteParticipant(tx.db, scope);
    await audit(tx, actor, 'participant.delete', participantId, present(before, []), undefined);
  });
}
