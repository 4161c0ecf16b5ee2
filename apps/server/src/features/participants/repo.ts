import { type HiddenField, SYNC_STALE_DAYS } from '@trialwear/contract';
import { type RawBuilder, sql } from 'kysely';
import {
  ownedOrTrialUser,
  type ParticipantScope,
  type TeamScope,
  type TrialScope,
  type TrialsScope,
  trialIdInScope,
} from '../../access/index.js';
import { cachedQuery } from '../../db/cached-query.js';
import { type Db, PREPARED } from '../../db/database.js';
import { localTodaySql } from '../readings/local-today.js';

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

/**
 * A trial's participant list in one query, its JSON built by PostgreSQL
 * (GET /api/trialParticipants/{trialId} runs it on every call: one round
 * trip, and no parsing or serialising of thousands of rows in node: at 1,436
 * participants node's work per call fell from ~4 ms to ~1 ms). Undefined
 * when the trial is not in the scope (the trials the caller sees); else the participants as a JSON array text, by id, without the
 * `hidden` fields, one page of it when asked, and with a page the trial's
 * participant count. Each element has listedParticipantSchema's fields.
 */
export async function trialParticipantsJson(
  db: Db,
  q: {
    scope: TrialsScope;
    /** Not checked yet: the query finds it only within the scope. */
    trialId: number;
    hidden: readonly HiddenField[];
    page?: { page: number; pageSize: number };
    /** Now (ISO instant): sync health's "no data for 3 days" counts the participant's local days to it. */
    now: string;
  },
) {
  const shape = {
    email: !q.hidden.includes('email'),
    notes: !q.hidden.includes('notes'),
    allTrials: q.scope.trialUserId === null,
    paged: !!q.page,
  };
  const limit = q.page?.pageSize ?? 0;
  const offset = q.page ? (q.page.page - 1) * q.page.pageSize : 0;
  const params = {
    teamId: q.scope.teamId,
    userId: q.scope.trialUserId ?? 0,
    trialId: q.trialId,
    limit,
    offset,
    now: q.now,
  };
  const rows = await participantsJsonQuery(db, shape, params);
  return rows[0];
}

const participantsJsonQuery = cachedQuery(
  (
    db,
    shape: { email: boolean; notes: boolean; allTrials: boolean; paged: boolean },
    q: { teamId: number; userId: number; trialId: number; limit: number; offset: number; now: string },
  ) => {
    const window = shape.paged ? sql`LIMIT ${q.limit} OFFSET ${q.offset}` : sql``;
    let query = db
      .selectFrom('trials as t')
      .modifyFront(PREPARED)
      .select([
        't.id',
        sql<string>`(
        SELECT coalesce(json_agg(x ORDER BY x.id), '[]'::json)::text
        FROM (
          SELECT
            p.id,
            p.trial_id AS "trialId",
            ${shape.email ? sql`p.email,` : sql``}
            p.gender,
            p.age,
            ${shape.notes ? sql`coalesce(p.notes, '') AS notes,` : sql``}
            p.participant_code,
            p.participant_code_suffix,
            to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
            coalesce(d.providers, ARRAY[]::text[]) AS authorized_devices,
            ${syncJson} AS sync
          FROM (
            SELECT * FROM participants
            WHERE team_id = t.team_id AND trial_id = t.id
            ORDER BY id ${window}
          ) p
          -- One aggregate joined once: few participants have devices, and a correlated
          -- subquery per row doubled the list's time at 5,000 participants.
          LEFT JOIN (
            SELECT dv.participant_id, array_agg(DISTINCT dv.provider ORDER BY dv.provider) AS providers
            FROM participant_devices dv
            JOIN participants dp ON dp.id = dv.participant_id
            WHERE dp.team_id = t.team_id AND dp.trial_id = t.id AND dv.authorization_status = 'authorized'
            GROUP BY dv.participant_id
          ) d ON d.participant_id = p.id
          LEFT JOIN (${syncHealth(sql`dp.team_id = t.team_id AND dp.trial_id = t.id`, q.now)}) s ON s.participant_id = p.id
        ) x
      )`.as('participants'),
        shape.paged
          ? sql<number>`(SELECT count(*) FROM participants c WHERE c.team_id = t.team_id AND c.trial_id = t.id)::int`.as(
              'total',
            )
          : sql<number>`0`.as('total'),
      ])
      .where('t.team_id', '=', q.teamId)
      .where('t.id', '=', q.trialId);
    if (!shape.allTrials) query = query.where(ownedOrTrialUser(q.userId));
    return query;
  },
);

/**
 * Sync health per participant over their authorized or errored links (the
 * devices matching `where`, on `dv` and `dp`), from device_sync_state: one
 * aggregate joined once, like the providers. See participantSyncSchema.
 * `days_without_data`: the fewest local days from a device's newest day with
 * data to its participant's local today at `now` (their zone, not UTC).
 */
const syncHealth = (where: RawBuilder<unknown>, now: Date | string) => sql`
  SELECT dv.participant_id,
    bool_or(dv.authorization_status = 'error') AS link_error,
    max(st.last_success_at) AS last_success_at,
    (array_agg(st.last_error ORDER BY st.last_error_at DESC) FILTER (WHERE st.last_error IS NOT NULL))[1] AS last_error,
    coalesce(sum(st.rows_stored), 0)::int AS rows_stored,
    coalesce(max(st.days_with_data_7d), 0)::int AS days7,
    max(st.last_data_date) AS last_data_date,
    max(st.limited_until) FILTER (WHERE st.limited_until > ${typeof now === 'string' ? now : now.toISOString()}::timestamptz) AS limited_until,
    min(${localTodaySql(now, 'st')} - st.last_data_date) AS days_without_data
  FROM participant_devices dv
  JOIN participants dp ON dp.id = dv.participant_id
  LEFT JOIN device_sync_state st ON st.participant_device_id = dv.id
  WHERE ${where} AND dv.authorization_status IN ('authorized', 'error')
  GROUP BY dv.participant_id`;

/** The `sync` object of a listed participant from the `s` aggregate; stale after SYNC_STALE_DAYS local days without data. */
const syncJson = sql`json_build_object(
  'status', CASE
    WHEN s.participant_id IS NULL THEN 'none'
    WHEN s.link_error THEN 'error'
    WHEN s.limited_until IS NOT NULL THEN 'waiting'
    WHEN s.last_error IS NOT NULL THEN 'error'
    WHEN s.last_success_at IS NULL THEN 'pending'
    WHEN s.last_data_date IS NULL OR s.days_without_data >= ${SYNC_STALE_DAYS}::int THEN 'stale'
    ELSE 'ok' END,
  'lastSuccessAt', to_char(s.last_success_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'lastError', s.last_error,
  'rowsStored', coalesce(s.rows_stored, 0),
  'daysWithData7d', coalesce(s.days7, 0),
  'lastDataDate', s.last_data_date::text,
  'resumesAt', to_char(s.limited_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/** Sync health of the participants of the trials in the scope (the /ParticipantsPage list), by participant id. */
export async function syncHealthOfTrials(db: Db, scope: TrialsScope, now: Date) {
  const res = await sql<{ id: number; sync: unknown }>`
    SELECT p.id, ${syncJson} AS sync
    FROM participants p
    LEFT JOIN (${syncHealth(sql`dp.team_id = ${scope.teamId} AND ${trialIdInScope('dp.trial_id', scope)}`, now)}) s
      ON s.participant_id = p.id
    WHERE p.team_id = ${scope.teamId} AND ${trialIdInScope('p.trial_id', scope)}`.execute(db);
  return new Map(res.rows.map((r) => [r.id, r.sync]));
}

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

/** Many of one trial at once, in one statement (the demo seed). */
export async function insertParticipants(db: Db, trial: TrialScope, ps: NewParticipant[]) {
  if (!ps.length) return;
  await db
    .insertInto('participants')
    .values(ps.map((p) => participantValues(trial, p)))
    .execute();
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
