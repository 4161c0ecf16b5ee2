-- Consent links as single-use, expiring records (they were a deterministic
-- signature that never expired, so an old email could relink a participant
-- to another provider account). The link's `t` is a random token; only its
-- SHA-256 is stored. A link expires after 7 days and is spent when a link
-- succeeds through it; the OAuth state remembers which link started it.
CREATE TABLE consent_links (
  token_hash     text PRIMARY KEY,
  participant_id integer NOT NULL,
  team_id        integer NOT NULL,
  provider       text NOT NULL CHECK (provider IN ('fitbit', 'omron', 'dexcom')),
  created_by     integer REFERENCES users (id) ON DELETE SET NULL,
  created_at     timestamptz NOT NULL,
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz,
  FOREIGN KEY (participant_id, team_id) REFERENCES participants (id, team_id) ON DELETE CASCADE
);
-- The per-participant request limit counts recent links.
CREATE INDEX consent_links_participant_idx ON consent_links (participant_id, provider, created_at DESC);

ALTER TABLE oauth_states ADD COLUMN consent_token_hash text REFERENCES consent_links (token_hash) ON DELETE CASCADE;
