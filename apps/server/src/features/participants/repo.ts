/** SQL of participants: one participant, the team's checks, writes, and the lists of the trials in a scope (list-repo.ts builds the trial list's JSON). */
import { sql } from 'kysely';
import {
  type ParticipantScope,
  type TeamScope,
  type TrialScope,
  type TrialsScope,
  trialIdInScope,
} from '../../access/index.js';
import type { Db } from '../../db/database.js';

const COLUMNS = [
  'p.id',
  'p.trial_id',
  'p.email',
  'p.gender',
  'p.age',
  'p.notes',
  'p.participant_code',
  'p.participant_code_suffix',
  // ISO text from PostgreSQL: parsing 5,000 timestamptz values into Dates in node was a third of the list's time.
  sql<string>`to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('created_at'),
] as const;

// The lists' SQL (one JSON text built by PostgreSQL) lives in list-repo.ts.
export { type ParticipantListWindow, syncHealthOfTrials, trialParticipantsJson } from './list-repo.js';

/** The participant of a checked scope (undefined only if deleted since the check). */
export function findParticipant(db: Db, { teamId, participantId }: ParticipantScope) {
  return db
    .selectFrom('participants as p')
    .select([...COLUMNS, 'p.team_id'])
    .where('p.team_id', '=', teamId)
    .where('p.id', '=', participantId)
    .executeTakeFirst();
}

export type ParticipantListRow = Awaited<ReturnType<typeof listParticipantsOfTrials>>[number];
export type ParticipantRow = NonNullable<Awaited<ReturnType<typeof findParticipant>>>;

export async function countTeamParticipants(db: Db, { teamId }: TeamScope) {
  const r = await db
    .selectFrom('participants')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function emailTakenInTeam(db: Db, { teamId }: TeamScope, email: string, exceptId?: number) {
  let q = db
    .selectFrom('participants')
    .select('id')
    .where('team_id', '=', teamId)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

export async function codeTakenInTrial(db: Db, { trialId }: TrialScope, code: string, exceptId?: number) {
  let q = db
    .selectFrom('participants')
    .select('id')
    .where('trial_id', '=', trialId)
    .where('participant_code', '=', code);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

export interface NewParticipant {
  email: string;
  gender: 'None' | 'female' | 'male' | 'other';
  age: number | null;
  notes: string | null;
  suffix: string | null;
  code: string | null;
}

const participantValues = ({ teamId, trialId }: TrialScope, p: NewParticipant) => ({
  team_id: teamId,
  trial_id: trialId,
  email: p.email,
  gender: p.gender,
  age: p.age,
  notes: p.notes,
  participant_code_suffix: p.suffix,
  participant_code: p.code,
});

export async function insertParticipant(db: Db, trial: TrialScope, p: NewParticipant) {
  const { id } = await db
    .insertInto('participants')
    .values(participantValues(trial, p))
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Many of one trial at once, in one statement (the demo seed, a bulk import): their ids with the email each was inserted with. */
export async function insertParticipants(db: Db, trial: TrialScope, ps: NewParticipant[]) {
  if (!ps.length) return [];
  return db
    .insertInto('participants')
    .values(ps.map((p) => participantValues(trial, p)))
    .returning(['id', 'email'])
    .execute();
}

/** Which of these emails (lower-cased) a participant of the team has, whatever the case. */
export async function takenEmails(db: Db, { teamId }: TeamScope, emails: readonly string[]) {
  if (!emails.length) return new Set<string>();
  const lowered = emails.map((e) => e.toLowerCase());
  const rows = await db
    .selectFrom('participants')
    .select(sql<string>`lower(email)`.as('email'))
    .where('team_id', '=', teamId)
    .where(sql<boolean>`lower(email) = any(${lowered}::text[])`)
    .execute();
  return new Set(rows.map((r) => r.email));
}

/** Which of these participant codes the trial has. */
export async function takenCodes(db: Db, { trialId }: TrialScope, codes: readonly string[]) {
  if (!codes.length) return new Set<string>();
  const rows = await db
    .selectFrom('participants')
    .select('participant_code')
    .where('trial_id', '=', trialId)
    .where(sql<boolean>`participant_code = any(${[...codes]}::text[])`)
    .execute();
  return new Set(rows.map((r) => r.participant_code!));
}

export async function updateParticipant(
  db: Db,
  { teamId, participantId: id }: ParticipantScope,
  fields: Partial<{
    email: string;
    gender: 'None' | 'female' | 'male' | 'other';
    age: number | null;
    notes: string | null;
  }>,
) {
  await db
    .updateTable('participants')
    .set({ ...fields, updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .execute();
}

export async function setParticipantCode(
  db: Db,
  { teamId, participantId: id }: ParticipantScope,
  suffix: string | null,
  code: string | null,
) {
  await db
    .updateTable('participants')
    .set({ participant_code_suffix: suffix, participant_code: code, updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .execute();
}

export async function deleteParticipant(db: Db, { teamId, participantId: id }: ParticipantScope) {
  await db.deleteFrom('participants').where('team_id', '=', teamId).where('id', '=', id).execute();
}

/** The participants of the trials in the scope (the /ParticipantsPage list: the trials the caller sees). */
export function listParticipantsOfTrials(db: Db, scope: TrialsScope) {
  return db
    .selectFrom('participants as p')
    .select(COLUMNS)
    .where('p.team_id', '=', scope.teamId)
    .where(trialIdInScope('p.trial_id', scope))
    .orderBy('p.trial_id')
    .orderBy('p.id')
    .execute();
}

/**
 * Authorized device providers per participant of trials of the team. A
 * separate query: few participants have devices, and a correlated subquery
 * per row doubled the list's time at 5,000 participants.
 */
export async function authorizedProvidersOfTrials(db: Db, scope: TrialsScope) {
  const rows = await db
    .selectFrom('participant_devices as d')
    .innerJoin('participants as p', 'p.id', 'd.participant_id')
    .select([
      'd.participant_id',
      sql<string[]>`array_agg(DISTINCT d.provider ORDER BY d.provider)`.as('providers'),
    ])
    .where('p.team_id', '=', scope.teamId)
    .where(trialIdInScope('p.trial_id', scope))
    .where('d.authorization_status', '=', 'authorized')
    .groupBy('d.participant_id')
    .execute();
  return new Map(rows.map((r) => [r.participant_id, r.providers]));
}
