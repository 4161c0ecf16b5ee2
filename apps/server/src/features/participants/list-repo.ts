/*
 * SQL of the participant lists as PostgreSQL builds them: a trial's list as
 * one JSON text (whole, or a page filtered and sorted on the server, decision
 * 040) and the participants' sync health, one expression for both.
 */
import {
  type HiddenField,
  LINK_PROVIDERS,
  type ParticipantSortColumn,
  PROVIDER_BRAND,
  PROVIDER_OF_LINK,
  SYNC_STALE_DAYS,
  SYNC_STATUS_TEXT,
  SYNC_STATUSES,
} from '@trialwear/contract';
import { type RawBuilder, sql } from 'kysely';
import { ownedOrTrialUser, type TrialsScope, trialIdInScope } from '../../access/index.js';
import { cachedQuery } from '../../db/cached-query.js';
import { type Db, PREPARED } from '../../db/database.js';
import { localTodaySql } from '../readings/local-today.js';

/** One page of a trial's list, its global filter and its sort (the contract's TrialParticipantsQuery). */
export interface ParticipantListWindow {
  page?: { page: number; pageSize: number };
  /** The table's global filter, as typed: a case-insensitive substring of any column's text. */
  filter?: string;
  sort?: { by: ParticipantSortColumn; desc: boolean };
}

/**
 * A trial's participant list in one query, its JSON built by PostgreSQL
 * (GET /api/trialParticipants/{trialId} runs it on every call: one round
 * trip, and no parsing or serialising of thousands of rows in node: at 1,436
 * participants node's work per call fell from ~4 ms to ~1 ms). Undefined
 * when the trial is not in the scope (the trials the caller sees); else the
 * participants as a JSON array text without the `hidden` fields: all of
 * them by id, or, with a window, those matching its filter in its order,
 * one page of them when asked, and the number matching (`total`). Each
 * element has listedParticipantSchema's fields.
 */
export async function trialParticipantsJson(
  db: Db,
  q: ParticipantListWindow & {
    scope: TrialsScope;
    /** Not checked yet: the query finds it only within the scope. */
    trialId: number;
    hidden: readonly HiddenField[];
    /** Now (ISO instant): sync health's "no data for 3 days" counts the participant's local days to it. */
    now: string;
  },
) {
  const email = !q.hidden.includes('email');
  const notes = !q.hidden.includes('notes');
  // A hidden field is neither matched nor sorted by: its order would tell what it holds.
  const sortBy = q.sort && (q.sort.by !== 'email' || email) ? q.sort.by : 'id';
  const windowed = !!(q.page || q.filter || q.sort);
  const shape = {
    email,
    notes,
    allTrials: q.scope.trialUserId === null,
    windowed,
    paged: !!q.page,
    filtered: !!q.filter,
    sortBy,
    desc: !!q.sort?.desc,
  };
  const params = {
    teamId: q.scope.teamId,
    userId: q.scope.trialUserId ?? 0,
    trialId: q.trialId,
    limit: q.page?.pageSize ?? 0,
    offset: q.page ? (q.page.page - 1) * q.page.pageSize : 0,
    filter: q.filter ?? '',
    now: q.now,
  };
  const rows = await participantsJsonQuery(db, shape, params);
  return rows[0];
}

type ListShape = {
  email: boolean;
  notes: boolean;
  allTrials: boolean;
  windowed: boolean;
  paged: boolean;
  filtered: boolean;
  sortBy: ParticipantSortColumn;
  desc: boolean;
};
type ListParams = {
  teamId: number;
  userId: number;
  trialId: number;
  limit: number;
  offset: number;
  filter: string;
  now: string;
};

const participantsJsonQuery = cachedQuery((db, shape: ListShape, q: ListParams) => {
  let query = (shape.windowed ? windowedList(db, shape, q) : wholeList(db, shape, q))
    .where('t.team_id', '=', q.teamId)
    .where('t.id', '=', q.trialId);
  if (!shape.allTrials) query = query.where(ownedOrTrialUser(q.userId));
  return query;
});

/** The fields of a listed participant from `p` (a participants row), `d` (its providers) and `s` (its sync health). */
const listedFields = (shape: ListShape) => sql`
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
  ${syncJson} AS sync`;

/**
 * Authorized providers per participant of the devices matching `where` (on
 * `dv` and `dp`), and their brands as the Authorized Devices cell shows them
 * (`brands`: what the filter and the sort read; at most one link per brand).
 */
const authorizedProviders = (where: RawBuilder<unknown>) => sql`
  SELECT dv.participant_id,
    array_agg(DISTINCT dv.provider ORDER BY dv.provider) AS providers,
    array_to_string(array_agg(CASE dv.provider ${sql.join(
      LINK_PROVIDERS.map((link) => sql`WHEN ${link} THEN ${PROVIDER_BRAND[PROVIDER_OF_LINK[link]]}`),
      sql` `,
    )} ELSE dv.provider END ORDER BY dv.provider), ', ') AS brands
  FROM participant_devices dv
  JOIN participants dp ON dp.id = dv.participant_id
  WHERE ${where} AND dv.authorization_status = 'authorized'
  GROUP BY dv.participant_id`;

/** The spec's answer: every participant of the trial `t`, by id. */
const wholeList = (db: Db, shape: ListShape, q: ListParams) =>
  db
    .selectFrom('trials as t')
    .modifyFront(PREPARED)
    .select([
      't.id',
      sql<string>`(
        SELECT coalesce(json_agg(x ORDER BY x.id), '[]'::json)::text
        FROM (
          SELECT ${listedFields(shape)}
          FROM participants p
          -- One aggregate joined once: few participants have devices, and a correlated
          -- subquery per row doubled the list's time at 5,000 participants.
          LEFT JOIN (${authorizedProviders(sql`dp.team_id = t.team_id AND dp.trial_id = t.id`)}) d ON d.participant_id = p.id
          LEFT JOIN (${syncHealth(sql`dp.team_id = t.team_id AND dp.trial_id = t.id`, q.now)}) s ON s.participant_id = p.id
          WHERE p.team_id = t.team_id AND p.trial_id = t.id
        ) x
      )`.as('participants'),
      sql<number>`0`.as('total'),
    ]);

/**
 * A window of the trial's list (decision 040): `m` holds the participants
 * matching the filter with their sort key; the answer is one page of `m`
 * in the key's order (ties by id), each page row's providers and sync
 * health looked up for it alone, and `m`'s count. Unfiltered and sorted by
 * a stored column, `m` is inlined: the default page reads 50 index entries
 * of (trial_id, id) and the count an index-only scan. Filtered or sorted by
 * the devices or the sync status, `m` needs both aggregates over the whole
 * trial, computed once (materialized) for the page and the count.
 */
const windowedList = (db: Db, shape: ListShape, q: ListParams) => {
  const derived = shape.filtered || shape.sortBy === 'authorized_devices' || shape.sortBy === 'sync';
  const trial = sql`p.team_id = ${q.teamId} AND p.trial_id = ${q.trialId}`;
  const inTrial = sql`dp.team_id = ${q.teamId} AND dp.trial_id = ${q.trialId}`;
  // One lower-cased text of the row's cells (chr(1) between them, so no match spans two) and one
  // strpos: eight ILIKEs per row cost PostgreSQL three times as much at 5,000 participants.
  const cellsText = sql`lower(concat_ws(chr(1), ${sql.join([
    sql`p.id::text`,
    sql`p.participant_code`,
    ...(shape.email ? [sql`p.email`] : []),
    sql`p.gender`,
    sql`p.age::text`,
    ...(shape.notes ? [sql`p.notes`] : []),
    brandsText,
    syncStatusText,
  ])}))`;
  const filter = shape.filtered ? sql`AND strpos(${cellsText}, lower(${q.filter})) > 0` : sql``;
  const dir = shape.desc ? sql`DESC` : sql`ASC`;
  const order = sql`sort_key ${dir} NULLS LAST, id`;
  const window = shape.paged ? sql`LIMIT ${q.limit} OFFSET ${q.offset}` : sql``;
  return db
    .with(
      (cte) => (derived ? cte('m').materialized() : cte('m').notMaterialized()),
      // Parenthesized here: Kysely writes a raw expression's CTE as it is.
      () => sql`(
        SELECT p.*, ${sortKeys()[shape.sortBy]} AS sort_key
        FROM participants p
        ${
          derived
            ? sql`LEFT JOIN (${authorizedProviders(inTrial)}) d ON d.participant_id = p.id
        LEFT JOIN (${syncHealth(inTrial, q.now)}) s ON s.participant_id = p.id`
            : sql``
        }
        WHERE ${trial} ${filter})`,
    )
    .selectFrom('trials as t')
    .modifyFront(PREPARED)
    .select([
      't.id',
      sql<string>`(
        SELECT coalesce(json_agg(x ORDER BY p.sort_key ${dir} NULLS LAST, p.id), '[]'::json)::text
        FROM (SELECT * FROM m ORDER BY ${order} ${window}) p
        LEFT JOIN LATERAL (${authorizedProviders(sql`dv.participant_id = p.id`)}) d ON true
        LEFT JOIN LATERAL (${syncHealth(sql`dv.participant_id = p.id`, q.now)}) s ON true
        CROSS JOIN LATERAL (SELECT ${listedFields(shape)}) x
      )`.as('participants'),
      sql<number>`(SELECT count(*) FROM m)::int`.as('total'),
    ]);
};

/**
 * Text keys sort as the table sorted them in the browser: case-insensitive,
 * runs of digits by their value (TanStack's alphanumeric sort: B2-9 before
 * B2-10), in code-point order ("C") whatever the database's collation. The
 * key is migration 028's natural_sort_key, written exactly as its indexes
 * are, so a page sorted by Code or Email reads those indexes in order.
 */
const naturalKey = (text: RawBuilder<unknown>) => sql`natural_sort_key(${text}) COLLATE "C"`;

/** The Authorized Devices cell's text from the `d` aggregate. */
const brandsText = sql`coalesce(d.brands, '')`;

/** Sort key of each column on `p` (and `d`, `s` for the derived ones); hidden fields never reach here. */
const sortKeys = (): Record<ParticipantSortColumn, RawBuilder<unknown>> => ({
  id: sql`p.id`,
  participant_code: naturalKey(sql`coalesce(p.participant_code, '')`),
  email: naturalKey(sql`p.email`),
  gender: sql`lower(p.gender) COLLATE "C"`,
  age: sql`p.age`,
  authorized_devices: sql`lower(${brandsText}) COLLATE "C"`,
  sync: sql`lower(${syncStatusText}) COLLATE "C"`,
});

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

/** The sync status of a listed participant from the `s` aggregate; stale after SYNC_STALE_DAYS local days without data. */
const syncStatus = sql`CASE
    WHEN s.participant_id IS NULL THEN 'none'
    WHEN s.link_error THEN 'error'
    WHEN s.limited_until IS NOT NULL THEN 'waiting'
    WHEN s.last_error IS NOT NULL THEN 'error'
    WHEN s.last_success_at IS NULL THEN 'pending'
    WHEN s.last_data_date IS NULL OR s.days_without_data >= ${SYNC_STALE_DAYS}::int THEN 'stale'
    ELSE 'ok' END`;

/** The Data Sync cell's text (what the table filtered and sorted by in the browser). */
const syncStatusText = sql`(CASE ${syncStatus} ${sql.join(
  SYNC_STATUSES.map((status) => sql`WHEN ${status} THEN ${SYNC_STATUS_TEXT[status]}`),
  sql` `,
)} END)`;

/** The `sync` object of a listed participant from the `s` aggregate. */
const syncJson = sql`json_build_object(
  'status', ${syncStatus},
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
