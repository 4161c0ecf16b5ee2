/*
 * Kysely table types (see index.ts): Trials, their staff users and their
 * participants.
 */
import type { Generated } from 'kysely';

export interface TrialsTable {
  id: Generated<number>;
  team_id: number;
  trial_number: string;
  trial_name: string;
  trial_notes: string | null;
  trial_code: string;
  owner_user_id: number | null;
  creation_date: Generated<Date>;
  updated_at: Generated<Date>;
  /** Exports with real dates allowed (decision 049). */
  allow_identified_exports: Generated<boolean>;
  /** The secret of the participants' date shifts, sealed (encryption.ts); made on first use. */
  date_shift_key_enc: string | null;
}

export interface TrialUsersTable {
  trial_id: number;
  user_id: number;
  added_at: Generated<Date>;
}

export interface ParticipantsTable {
  id: Generated<number>;
  team_id: number;
  trial_id: number;
  email: string;
  gender: Generated<'None' | 'female' | 'male' | 'other'>;
  age: number | null;
  notes: string | null;
  participant_code_suffix: string | null;
  participant_code: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
