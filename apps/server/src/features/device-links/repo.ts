/** SQL of device links: participant_devices, oauth_states and the catalog lookup a new link needs. */
import { LINKS_OF_PROVIDER, type LinkProvider, type Provider } from '@trialwear/contract';
import type { ParticipantScope } from '../../access/index.js';
import type { Db } from '../../db/database.js';

/** The participant's link to a brand (Fitbit's two APIs share one link). */
export function findLink(db: Db, { participantId }: ParticipantScope, providers: readonly LinkProvider[]) {
  return db
    .selectFrom('participant_devices')
    .selectAll()
    .where('participant_id', '=', participantId)
    .where('provider', 'in', providers)
    .executeTakeFirst();
}

export type LinkRow = NonNullable<Awaited<ReturnType<typeof findLink>>>;

/** The participant's link to this provider's brand (a Fitbit link may be on either API). */
export function findProviderLink(db: Db, provider: Provider, participant: ParticipantScope) {
  return findLink(db, participant, LINKS_OF_PROVIDER[provider]);
}

export async function catalogDeviceId(db: Db, deviceName: string) {
  const row = await db
    .selectFrom('global_device_catalog')
    .select('id')
    .where('device_name', '=', deviceName)
    .executeTakeFirst();
  return row?.id ?? null;
}

export interface AuthorizedValues {
  /** The API the link is (now) authorized through: a Fitbit link moves to the Google Health API on re-consent. */
  provider: LinkProvider;
  authorization_status: 'authorized';
  authorization_date: Date;
  provider_user_id: string | null;
  legacy_user_id: string | null;
  updated_at: Date;
}

export async function authorizeLink(db: Db, linkId: number, values: AuthorizedValues) {
  const row = await db
    .updateTable('participant_devices')
    .set(values)
    .where('id', '=', linkId)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertLink(
  db: Db,
  link: {
    participantId: number;
    teamId: number;
    catalogId: number | null;
  } & AuthorizedValues,
) {
  const { participantId, teamId, catalogId, ...values } = link;
  const row = await db
    .insertInto('participant_devices')
    .values({
      participant_id: participantId,
      team_id: teamId,
      global_device_catalog_id: catalogId,
      ...values,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The link stopped working for good (its token refused): staff must have the participant consent again. */
export async function setLinkErrored(db: Db, linkId: number, now: Date) {
  await db
    .updateTable('participant_devices')
    .set({ authorization_status: 'error', updated_at: now })
    .where('id', '=', linkId)
    .where('authorization_status', '=', 'authorized')
    .execute();
}

export async function setLinkRevoked(db: Db, linkId: number, now: Date) {
  await db
    .updateTable('participant_devices')
    .set({ authorization_status: 'revoked', updated_at: now })
    .where('id', '=', linkId)
    .execute();
}

export async function insertOAuthState(
  db: Db,
  s: {
    nonce: string;
    participantId: number;
    provider: LinkProvider;
    codeVerifier: string;
    consentTokenHash: string;
    now: Date;
    expiresAt: Date;
  },
) {
  await db
    .insertInto('oauth_states')
    .values({
      nonce: s.nonce,
      participant_id: s.participantId,
      provider: s.provider,
      code_verifier: s.codeVerifier,
      consent_token_hash: s.consentTokenHash,
      created_at: s.now,
      expires_at: s.expiresAt,
    })
    .execute();
}

/** Locks the participant's row: consent requests for one participant are counted one at a time. */
export function lockParticipant(db: Db, { participantId }: ParticipantScope) {
  return db
    .selectFrom('participants')
    .select('id')
    .where('id', '=', participantId)
    .forUpdate()
    .executeTakeFirst();
}

export async function countRecentConsentLinks(
  db: Db,
  { participantId }: ParticipantScope,
  provider: Provider,
  since: Date,
) {
  const r = await db
    .selectFrom('consent_links')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('participant_id', '=', participantId)
    .where('provider', '=', provider)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertConsentLink(
  db: Db,
  { participantId, teamId }: ParticipantScope,
  l: {
    tokenHash: string;
    provider: Provider;
    createdBy: number;
    now: Date;
    expiresAt: Date;
  },
) {
  await db
    .insertInto('consent_links')
    .values({
      token_hash: l.tokenHash,
      participant_id: participantId,
      team_id: teamId,
      provider: l.provider,
      created_by: l.createdBy,
      created_at: l.now,
      expires_at: l.expiresAt,
    })
    .execute();
}

export function findConsentLink(db: Db, tokenHash: string) {
  return db.selectFrom('consent_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Spends a consent link once; false when it was spent (or expired) meanwhile. */
export async function spendConsentLink(db: Db, tokenHash: string, now: Date) {
  const r = await db
    .updateTable('consent_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Spends a state once: only an unused, unexpired row of this participant and provider matches. */
export function spendOAuthState(
  db: Db,
  s: { nonce: string; participantId: number; provider: LinkProvider; now: Date },
) {
  return db
    .updateTable('oauth_states')
    .set({ used_at: s.now })
    .where('nonce', '=', s.nonce)
    .where('participant_id', '=', s.participantId)
    .where('provider', '=', s.provider)
    .where('used_at', 'is', null)
    .where('expires_at', '>', s.now)
    .returning(['participant_id', 'code_verifier', 'consent_token_hash'])
    .executeTakeFirst();
}
