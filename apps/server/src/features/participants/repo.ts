import { sql } from 'kysely';
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

/** One indexed scan of the trial (participants_trial_idx). */
export function listTrialParticipants(db: Db, teamId: number, trialId: number) {
  return db
    .selectFrom('participants as p')
    .select(COLUMNS)
    .where('p.team_id', '=', teamId)
    .where('p.trial_id', '=', trialId)
    .orderBy('p.id')
    .execute();
}

/**
 * Authorized device providers per participant of a trial. A separate query:
 * few participants have devices, and a correlated subquery per row doubled
 * the list's time at 5,000 participants.
 */
export async function authorizedProvidersByParticipant(db: Db, teamId: number, trialId: number) {
  const rows = await db
    .selectFrom('participant_devices as d')
    .innerJoin('participants as p', 'p.id', 'd.participant_id')
    .select([
      'd.participant_id',
      sql<string[]>`array_agg(DISTINCT d.provider ORDER BY d.provider)`.as('providers'),
    ])
    .where('p.team_id', '=', teamId)
    .where('p.trial_id', '=', trialId)
    .where('d.authorization_status', '=', 'authorized')
    .groupBy('d.participant_id')
    .execute();
  return new Map(rows.map((r) => [r.participant_id, r.providers]));
}

function selectParticipant(db: Db, teamId: number, participantId: number) {
  return db
    .selectFrom('participants as p')
    .select([...COLUMNS, 'p.team_id'])
    .where('p.team_id', '=', teamId)
    .where('p.id', '=', participantId);
}

export function findParticipant(db: Db, teamId: number, participantId: number) {
  return selectParticipant(db, teamId, participantId).executeTakeFirst();
}

/**
 * The participant, row-locked until the transaction ends: an edit, code change
 * or delete racing a delete of the same participant finds it gone (404)
 * instead of writing to (and auditing) a row that no longer exists.
 */
export function findParticipantForUpdate(db: Db, teamId: number, participantId: number) {
  return selectParticipant(db, teamId, participantId).forUpdate().executeTakeFirst();
}

export type ParticipantRow = NonNullable<Awaited<ReturnType<typeof findParticipant>>>;

export async function countTeamParticipants(db: Db, teamId: number) {
  const r = await db
    .selectFrom('participants')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function emailTakenInTeam(db: Db, teamId: number, email: string, exceptId?: number) {
  let q = db
    .selectFrom('participants')
    .select('id')
    .where('team_id', '=', teamId)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

export async function codeTakenInTrial(db: Db, trialId: number, code: string, exceptId?: number) {
  let q = db
    .selectFrom('participants')
    .select('id')
    .where('trial_id', '=', trialId)
    .where('participant_code', '=', code);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

export interface NewParticipant {
  teamId: number;
  trialId: number;
  email: string;
  gender: 'None' | 'female' | 'male' | 'other';
  age: number | null;
  notes: string | null;
  suffix: string | null;
  code: string | null;
}

const participantValues = (p: NewParticipant) => ({
  team_id: p.teamId,
  trial_id: p.trialId,
  email: p.email,
  gender: p.gender,
  age: p.age,
  notes: p.notes,
  participant_code_suffix: p.suffix,
  participant_code: p.code,
});

export async function insertParticipant(db: Db, p: NewParticipant) {
  const { id } = await db
    .insertInto('participants')
    .values(participantValues(p))
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Many at once, in one statement (the demo seed). */
export async function insertParticipants(db: Db, ps: NewParticipant[]) {
  if (!ps.length) return;
  await db.insertInto('participants').values(ps.map(participantValues)).execute();
}

export async function updateParticipant(
  db: Db,
  teamId: number,
  id: number,
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
  teamId: number,
  id: number,
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

export async function deleteParticipant(db: Db, teamId: number, id: number) {
  await db.deleteFrom('participants').where('team_id', '=', teamId).where('id', '=', id).execute();
}

export async function teamHiddenFieldsSetting(db: Db, teamId: number) {
  const t = await db
    .selectFrom('teams')
    .select('hidden_participant_fields')
    .where('id', '=', teamId)
    .executeTakeFirstOrThrow();
  return t;
}
