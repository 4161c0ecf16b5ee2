-- Participant sign-in (issue #14). A participant's session is kept apart from
-- staff sessions (its own table and cookie), so it can never pass a staff
-- route check, nor a staff session a participant one. The account's email
-- must be confirmed (the link mailed at sign-up) before the account is tied
-- to enrolled participants by that address.

ALTER TABLE participant_accounts ADD COLUMN email_verified_at timestamptz;
ALTER TABLE participant_accounts ADD COLUMN email_verify_token_hash text;

CREATE TABLE participant_sessions (
  id          text PRIMARY KEY,            -- SHA-256 of the cookie's random token
  account_id  integer NOT NULL REFERENCES participant_accounts (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  ip          text,
  user_agent  text
);
CREATE INDEX participant_sessions_account_idx ON participant_sessions (account_id);
CREATE INDEX participant_sessions_expires_idx ON participant_sessions (expires_at);
