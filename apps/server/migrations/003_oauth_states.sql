-- Device authorization: one row per consent attempt. The state sent to the
-- provider names the participant (readable) and carries a random nonce and a
-- signature; the nonce is spent at the callback, so a state cannot be replayed.
CREATE TABLE oauth_states (
  nonce          text PRIMARY KEY,
  participant_id integer NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
  provider       text NOT NULL CHECK (provider IN ('fitbit', 'google_health', 'omron', 'dexcom')),
  code_verifier  text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz
);
CREATE INDEX oauth_states_participant_idx ON oauth_states (participant_id);
