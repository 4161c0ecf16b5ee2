/** SQL of the expired-token clean-up: single-use secrets past their life, across the tables that hold them. */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export interface CleanupCounts {
  sessions: number;
  participantSessions: number;
  rememberedDevices: number;
  emailSfaCodes: number;
  passwordResetTokens: number;
  signupInvitations: number;
  oauthStates: number;
  loginLockouts: number;
}

const count = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);

/** Deletes rows that expired, or were spent, before `cutoff`. */
export async function deleteExpired(db: Db, now: Date, cutoff: Date): Promise<CleanupCounts> {
  // The four single-use tables share expires_at and used_at; one statement shape for all of them.
  const spentOrExpired = async (
    table: 'email_sfa_codes' | 'password_reset_tokens' | 'signup_invitations' | 'oauth_states',
  ) => {
    const r =
      await sql`DELETE FROM ${sql.table(table)} WHERE expires_at < ${cutoff} OR used_at < ${cutoff}`.execute(
        db,
      );
    return Number(r.numAffectedRows ?? 0n);
  };
  return {
    sessions: count(await db.deleteFrom('sessions').where('expires_at', '<', now).executeTakeFirst()),
    participantSessions: count(
      await db.deleteFrom('participant_sessions').where('expires_at', '<', now).executeTakeFirst(),
    ),
    rememberedDevices: count(
      await db.deleteFrom('remembered_devices').where('expires_at', '<', now).executeTakeFirst(),
    ),
    emailSfaCodes: await spentOrExpired('email_sfa_codes'),
    passwordResetTokens: await spentOrExpired('password_reset_tokens'),
    signupInvitations: await spentOrExpired('signup_invitations'),
    oauthStates: await spentOrExpired('oauth_states'),
    // Failure counts nobody has added to for a week, not locked now: their escalation is forgotten.
    loginLockouts: count(
      await db
        .deleteFrom('login_lockouts')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .where('last_failed_at', '<', new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000))
        .executeTakeFirst(),
    ),
  };
}

/** For the job's test and the CLI: how many rows each table holds. */
export async function countRows(db: Db) {
  const r = await sql<CleanupCounts>`
    SELECT (SELECT count(*) FROM sessions)::int AS "sessions",
           (SELECT count(*) FROM participant_sessions)::int AS "participantSessions",
           (SELECT count(*) FROM remembered_devices)::int AS "rememberedDevices",
           (SELECT count(*) FROM email_sfa_codes)::int AS "emailSfaCodes",
           (SELECT count(*) FROM password_reset_tokens)::int AS "passwordResetTokens",
           (SELECT count(*) FROM signup_invitations)::int AS "signupInvitations",
           (SELECT count(*) FROM oauth_states)::int AS "oauthStates",
           (SELECT count(*) FROM login_lockouts)::int AS "loginLockouts"`.execute(db);
  return r.rows[0]!;
}
