/** SQL of device data: the participant's provider link and the stored local summary. */
import type { LinkProvider } from '@trialwear/contract';
import type { ParticipantScope } from '../../access/index.js';
import type { Db } from '../../db/database.js';

/** The participant's link to a brand (Fitbit's two APIs share one link). */
export function findLink(db: Db, { participantId }: ParticipantScope, providers: readonly LinkProvider[]) {
  return db
    .selectFrom('participant_devices')
    .select(['id', 'provider', 'authorization_status', 'provider_user_id'])
    .where('participant_id', '=', participantId)
    .where('provider', 'in', providers)
    .executeTakeFirst();
}

export type DataLink = NonNullable<Awaited<ReturnType<typeof findLink>>>;

export async function saveSummary(db: Db, { participantId }: ParticipantScope, data: unknown, now: Date) {
  await db
    .insertInto('participant_summaries')
    .values({ participant_id: participantId, data: JSON.stringify(data), updated_at: now })
    .onConflict((oc) =>
      oc.column('participant_id').doUpdateSet({ data: JSON.stringify(data), updated_at: now }),
    )
    .execute();
}

export function findSummary(db: Db, { participantId }: ParticipantScope) {
  return db
    .selectFrom('participant_summaries')
    .select(['data', 'updated_at'])
    .where('participant_id', '=', participantId)
    .executeTakeFirst();
}
