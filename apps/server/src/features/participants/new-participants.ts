/*
 * The rules of new participants of one trial (core §5, §8), written once for
 * the add-participant call (one) and the bulk import (a file's rows, decision
 * 045): the stored email and notes under the team's hidden fields, the
 * team's participant limit, the code and the email not taken in the trial or
 * team — nor by an earlier row of the same file. Runs under the team's lock
 * (lockTeamForLimits), so the limit counts exactly.
 */
import { randomUUID } from 'node:crypto';
import {
  effectiveHiddenFields,
  IMPORT_MESSAGES,
  PARTICIPANT_MESSAGES,
  participantEmailSchema,
} from '@trialwear/contract';
import type { Actor, TeamScope, TrialScope } from '../../access/index.js';
import { recordAudits } from '../../audit/audit-log.js';
import type { Db } from '../../db/database.js';
import * as repo from './repo.js';
import { mapUniqueViolation } from './service.js';

export interface NewParticipantInput {
  gender: repo.NewParticipant['gender'];
  age: number | null;
  email: string;
  notes: string;
  codeSuffix: string | null;
  /** Where it comes from in a file (row number), for the duplicate messages; add has none. */
  row?: number;
}

/** A refusal with the status and reason the add-participant call answers it with. */
export interface Refusal {
  status: 400 | 403 | 409;
  reason: 'ValidationError' | 'LimitReached' | 'CodeTaken' | 'EmailTaken';
  path: string;
  message: string;
}

export interface CheckedParticipant {
  /** What would be stored (a placeholder email when the team hides email). */
  values: repo.NewParticipant;
  /** In the order the add call checks them: its first is the add call's answer. None: it may be inserted. */
  refusals: Refusal[];
}

/** The team row under its lock (teams repo lockTeam). */
export interface LockedTeam {
  max_participants: number | null;
  hidden_participant_fields: string[] | null;
}

/**
 * Each input's stored values and refusals. `earlier` refusals (the schema's, for a file's row) come first and
 * make the row refused; a row refused for any reason takes no place under the limit.
 */
export async function checkNewParticipants(
  db: Db,
  scopes: { team: TeamScope; trial: TrialScope; trialCode: string },
  team: LockedTeam,
  inputs: readonly (NewParticipantInput & { earlier?: Refusal[] })[],
  /** How a duplicate of an earlier row is told (the file's row numbers by default). */
  twice: { email: (row: number) => string; code: (row: number) => string } = {
    email: IMPORT_MESSAGES.emailTwice,
    code: IMPORT_MESSAGES.codeTwice,
  },
): Promise<CheckedParticipant[]> {
  const hidden = effectiveHiddenFields(team.hidden_participant_fields);
  const checked = inputs.map((input) => {
    const refusals: Refusal[] = [...(input.earlier ?? [])];
    let email: string;
    if (hidden.includes('email')) {
      // The team keeps no participant emails: a unique placeholder on a reserved domain (RFC 2606).
      email = `participant-${randomUUID()}@hidden.invalid`;
    } else {
      const parsed = participantEmailSchema.safeParse(input.email);
      email = parsed.success ? parsed.data : input.email;
      if (!parsed.success) refusals.push(validation('email', parsed.error.issues[0]!.message));
    }
    const values: repo.NewParticipant = {
      email,
      gender: input.gender,
      age: input.age,
      notes: hidden.includes('notes') ? null : input.notes || null,
      suffix: input.codeSuffix,
      code: input.codeSuffix ? `${scopes.trialCode}-${input.codeSuffix}` : null,
    };
    return {
      values,
      refusals,
      emailChecked: !hidden.includes('email') && refusals.every((r) => r.path !== 'email'),
    };
  });

  const [count, codes, emails] = await Promise.all([
    team.max_participants === null ? 0 : repo.countTeamParticipants(db, scopes.team),
    repo.takenCodes(
      db,
      scopes.trial,
      checked.flatMap((c) => (c.values.code ? [c.values.code] : [])),
    ),
    repo.takenEmails(
      db,
      scopes.team,
      checked.flatMap((c) => (c.emailChecked ? [c.values.email] : [])),
    ),
  ]);
  const codeRow = new Map<string, number>();
  const emailRow = new Map<string, number>();
  let places = team.max_participants === null ? Infinity : team.max_participants - count;
  return checked.map(({ values, refusals, emailChecked }, i) => {
    const row = inputs[i]!.row ?? i + 1;
    const wellFormed = refusals.every((r) => r.status !== 400);
    if (wellFormed && places <= 0)
      refusals.push({
        status: 403,
        reason: 'LimitReached',
        path: '',
        message: PARTICIPANT_MESSAGES.limitReached,
      });
    const { code } = values;
    if (code && codes.has(code))
      refusals.push(taken('CodeTaken', 'codeSuffix', PARTICIPANT_MESSAGES.codeTaken));
    else if (code && codeRow.has(code))
      refusals.push(taken('CodeTaken', 'codeSuffix', twice.code(codeRow.get(code)!)));
    const email = values.email.toLowerCase();
    if (emailChecked && emails.has(email))
      refusals.push(taken('EmailTaken', 'email', PARTICIPANT_MESSAGES.emailTaken));
    else if (emailChecked && emailRow.has(email))
      refusals.push(taken('EmailTaken', 'email', twice.email(emailRow.get(email)!)));
    if (code && !codeRow.has(code)) codeRow.set(code, row);
    if (emailChecked && !emailRow.has(email)) emailRow.set(email, row);
    if (refusals.length === 0) places -= 1;
    return { values, refusals };
  });
}

/**
 * Inserts checked participants (those without refusals) in one statement,
 * with the `participant.create` audit row the add call writes for each
 * (`extra(i)` adds where the i-th came from). In the caller's transaction.
 */
export async function insertNewParticipants(
  db: Db,
  actor: Pick<Actor, 'userId' | 'teamId' | 'requestId' | 'ip'>,
  scope: TrialScope,
  trialId: number,
  valid: readonly (repo.NewParticipant & { row: number })[],
  extra: (i: number) => Record<string, unknown>,
) {
  const inserted = await repo
    .insertParticipants(db, scope, [...valid])
    .catch((err) => mapUniqueViolation(err, null));
  const idByEmail = new Map(inserted.map((p) => [p.email.toLowerCase(), p.id]));
  const created = valid.map((p) => ({
    row: p.row,
    participantId: idByEmail.get(p.email.toLowerCase())!,
    participant_code: p.code,
  }));
  await recordAudits(
    db,
    created.map((c, i) => ({
      userId: actor.userId,
      teamId: actor.teamId,
      requestId: actor.requestId,
      ip: actor.ip,
      action: 'participant.create',
      entityType: 'participant',
      entityId: c.participantId,
      after: {
        id: c.participantId,
        trialId,
        email: valid[i]!.email,
        gender: valid[i]!.gender,
        age: valid[i]!.age,
        notes: valid[i]!.notes ?? '',
        participant_code: valid[i]!.code,
        participant_code_suffix: valid[i]!.suffix,
        ...extra(i),
      },
    })),
  );
  return created;
}

const validation = (path: string, message: string): Refusal => ({
  status: 400,
  reason: 'ValidationError',
  path,
  message,
});
const taken = (reason: 'CodeTaken' | 'EmailTaken', path: string, message: string): Refusal => ({
  status: 409,
  reason,
  path,
  message,
});
