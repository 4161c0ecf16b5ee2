/** SQL of the alerts' evaluation: which trials to evaluate, and an alert opened or closed. */
import type { HealthRuleKey } from '@trialwear/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** Trials with at least one linked device (nothing to evaluate elsewhere), or the one asked for. */
export function trialsToEvaluate(db: Db, trialId?: number) {
  return db
    .selectFrom('trials as t')
    .select(['t.id', 't.team_id'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('participants as p')
          .innerJoin('participant_devices as d', 'd.participant_id', 'p.id')
          .select(sql`1`.as('x'))
          .whereRef('p.trial_id', '=', 't.id'),
      ),
    )
    .$if(trialId !== undefined, (q) => q.where('t.id', '=', trialId!))
    .orderBy('t.id')
    .execute();
}

/** Opens the alert unless one of the participant and rule is open (the partial unique index decides); its id, or null. */
export async function openAlert(
  db: Db,
  a: {
    teamId: number;
    trialId: number;
    participantId: number;
    ruleKey: HealthRuleKey;
    detail: unknown;
    now: Date;
  },
): Promise<number | null> {
  const row = await sql<{ id: number }>`
    INSERT INTO health_alerts (team_id, trial_id, participant_id, rule_key, opened_at, detail)
    VALUES (${a.teamId}, ${a.trialId}, ${a.participantId}, ${a.ruleKey}, ${a.now}, ${JSON.stringify(a.detail)}::jsonb)
    ON CONFLICT (participant_id, rule_key) WHERE closed_at IS NULL DO NOTHING
    RETURNING id`.execute(db);
  return row.rows[0]?.id ?? null;
}

/** Closes the participant's open alerts of rules that no longer hold; their ids and rules. */
export async function closeAlerts(
  db: Db,
  a: { participantId: number; trialId: number; holding: readonly HealthRuleKey[]; now: Date },
) {
  return db
    .updateTable('health_alerts')
    .set({ closed_at: a.now })
    .where('participant_id', '=', a.participantId)
    .where('trial_id', '=', a.trialId)
    .where('closed_at', 'is', null)
    .$if(a.holding.length > 0, (q) => q.where('rule_key', 'not in', [...a.holding]))
    .returning(['id', 'rule_key'])
    .execute();
}

/** The authorized devices of the trial's participants (all trials: every authorized device). */
export function devicesOfTrial(db: Db, trialId?: number) {
  return db
    .selectFrom('participant_devices as d')
    .innerJoin('participants as p', 'p.id', 'd.participant_id')
    .select(['d.id'])
    .where('d.authorization_status', '=', 'authorized')
    .$if(trialId !== undefined, (q) => q.where('p.trial_id', '=', trialId!))
    .orderBy('d.id')
    .execute();
}
