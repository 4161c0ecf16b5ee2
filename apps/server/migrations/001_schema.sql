-- TrialWear schema: every entity of portal-core.md and portal-admin.md.
-- Instants are timestamptz (UTC). Counts the admin spec lists as team fields
-- (actual_num_of_*) are derived in the team_overview view, never stored.

CREATE TABLE teams (
  id                           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_name                    text NOT NULL,
  is_active                    boolean NOT NULL DEFAULT true,
  subscription_starts          date,
  subscription_ends            date,
  subscription_type            text,
  max_users                    integer CHECK (max_users >= 0),
  max_trials                   integer CHECK (max_trials >= 0),
  max_participants             integer CHECK (max_participants >= 0),
  team_admin_email             text,
  team_admin_phone             text,
  organization                 text,
  notes                        text,
  monthly_rate_per_participant numeric(10, 2),
  retention_days               integer CHECK (retention_days >= 1),
  storage_location             text,
  -- NULL = unknown: both email and notes are hidden (spec core §3, admin §3).
  hidden_participant_fields    text[] CHECK (hidden_participant_fields <@ ARRAY['email', 'notes']::text[]),
  created_at                   timestamptz NOT NULL DEFAULT now(),
  updated_at                   timestamptz NOT NULL DEFAULT now(),
  CHECK (subscription_ends IS NULL OR subscription_starts IS NULL OR subscription_ends >= subscription_starts)
);
CREATE UNIQUE INDEX teams_name_key ON teams (lower(team_name));

CREATE TABLE users (
  id                    integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username              text NOT NULL,
  email                 text NOT NULL,
  first_name            text NOT NULL,
  last_name             text NOT NULL,
  organization          text,
  password_hash         text NOT NULL,
  is_active             boolean NOT NULL DEFAULT true,
  sfa_required          boolean NOT NULL DEFAULT true,
  sfa_enabled           boolean NOT NULL DEFAULT false,
  sfa_type              text CHECK (sfa_type IN ('totp', 'email')),
  sfa_secret_enc        text,            -- TOTP secret, AES-256-GCM
  sfa_last_totp_step    bigint,          -- last accepted TOTP time step: a code is accepted once only
  token_version         integer NOT NULL DEFAULT 0,
  failed_attempts       integer NOT NULL DEFAULT 0,
  locked_at             timestamptz,
  last_selected_team_id integer,
  create_time           timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- A user's role is per team.
CREATE TABLE team_memberships (
  user_id      integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  team_id      integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  role         text NOT NULL CHECK (role IN ('Sys_Admin', 'Admin', 'User', 'Viewer')),
  default_team boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, team_id)
);
CREATE INDEX team_memberships_team_idx ON team_memberships (team_id);
CREATE UNIQUE INDEX team_memberships_one_default ON team_memberships (user_id) WHERE default_team;
ALTER TABLE users ADD CONSTRAINT users_last_selected_team_fk
  FOREIGN KEY (last_selected_team_id) REFERENCES teams (id) ON DELETE SET NULL;

-- Sessions: the cookie carries a random token; only its SHA-256 is stored.
CREATE TABLE sessions (
  id            text PRIMARY KEY,
  user_id       integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  team_id       integer REFERENCES teams (id) ON DELETE SET NULL,
  auth_status   text NOT NULL CHECK (auth_status IN ('Authorized', 'SFAValidateEmailCodeNeeded', 'SFAValidateCodeNeeded', 'SFAVerifyCodeNeeded', 'SFAIsNotSet')),
  token_version integer NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  refreshed_at  timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  ip            text,
  user_agent    text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- 'Remember this device for 48 hours': a signed cookie whose hash is stored here.
CREATE TABLE remembered_devices (
  id         text PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX remembered_devices_user_idx ON remembered_devices (user_id);

CREATE TABLE email_sfa_codes (
  id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash  text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX email_sfa_codes_user_idx ON email_sfa_codes (user_id, created_at DESC);

CREATE TABLE password_reset_tokens (
  token_hash text PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX password_reset_tokens_user_idx ON password_reset_tokens (user_id);

-- Sign-up approval (admin spec): a single-use emailed token granting a role in a team.
CREATE TABLE signup_invitations (
  token_hash  text PRIMARY KEY,
  email       text NOT NULL,
  role        text NOT NULL CHECK (role IN ('Admin', 'User', 'Viewer')),
  team_id     integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  approved_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  used_by     integer REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX signup_invitations_email_idx ON signup_invitations (lower(email));

-- Participant self-service accounts (/ParticipantSignupPage, /ParticipantLoginPage).
CREATE TABLE participant_accounts (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username      text NOT NULL,
  email         text NOT NULL,
  password_hash text NOT NULL,
  participant_id integer,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX participant_accounts_username_key ON participant_accounts (lower(username));
CREATE UNIQUE INDEX participant_accounts_email_key ON participant_accounts (lower(email));

CREATE TABLE trials (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id       integer NOT NULL REFERENCES teams (id) ON DELETE RESTRICT,
  trial_number  text NOT NULL CHECK (length(trim(trial_number)) > 0),
  trial_name    text NOT NULL CHECK (length(trim(trial_name)) > 0),
  trial_notes   text CHECK (length(trial_notes) <= 300),
  trial_code    text NOT NULL CHECK (trial_code ~ '^[A-Z0-9]{1,16}$'),  -- prefix of participant codes
  owner_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  creation_date timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (team_id, id)
);
CREATE UNIQUE INDEX trials_team_number_key ON trials (team_id, lower(trial_number));
CREATE UNIQUE INDEX trials_team_code_key ON trials (team_id, trial_code);

CREATE TABLE trial_users (
  trial_id   integer NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  added_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (trial_id, user_id)
);
CREATE INDEX trial_users_user_idx ON trial_users (user_id);

CREATE TABLE participants (
  id                      integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id                 integer NOT NULL,
  trial_id                integer NOT NULL,
  email                   text NOT NULL,
  gender                  text NOT NULL DEFAULT 'None' CHECK (gender IN ('None', 'female', 'male', 'other')),
  age                     smallint CHECK (age > 0 AND age <= 999),
  notes                   text CHECK (length(notes) <= 300),
  participant_code_suffix text CHECK (participant_code_suffix ~ '^[0-9_]{1,12}$'),
  participant_code        text,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now(),
  -- The participant's trial belongs to the participant's team: no cross-team rows.
  FOREIGN KEY (team_id, trial_id) REFERENCES trials (team_id, id) ON DELETE RESTRICT,
  CHECK ((participant_code IS NULL) = (participant_code_suffix IS NULL))
);
CREATE INDEX participants_trial_idx ON participants (trial_id, id);
CREATE UNIQUE INDEX participants_trial_code_key ON participants (trial_id, participant_code) WHERE participant_code IS NOT NULL;
CREATE UNIQUE INDEX participants_team_email_key ON participants (team_id, lower(email));
ALTER TABLE participant_accounts ADD CONSTRAINT participant_accounts_participant_fk
  FOREIGN KEY (participant_id) REFERENCES participants (id) ON DELETE SET NULL;

-- Devices ------------------------------------------------------------------

CREATE TABLE global_device_catalog (
  id           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  manufacturer text NOT NULL CHECK (manufacturer IN ('Fitbit', 'Omron', 'Dexcom')),
  device_type  text NOT NULL,   -- e.g. fitness_tracker, scale, blood_pressure, cgm
  device_name  text NOT NULL UNIQUE,
  context      text,
  description  text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE team_allowed_brands (
  team_id    integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  brand_name text NOT NULL CHECK (brand_name IN ('Fitbit', 'Omron', 'Dexcom')),
  is_active  boolean NOT NULL DEFAULT true,
  PRIMARY KEY (team_id, brand_name)
);

CREATE TABLE team_supported_devices (
  id                       integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id                  integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  global_device_catalog_id integer NOT NULL REFERENCES global_device_catalog (id) ON DELETE RESTRICT,
  is_active                boolean NOT NULL DEFAULT true,
  notes                    text,
  UNIQUE (team_id, global_device_catalog_id),
  UNIQUE (team_id, id)
);

-- What can be measured, per device type (the "available metrics").
CREATE TABLE metric_catalog (
  id                     integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  metric_key             text NOT NULL,
  metric_name            text NOT NULL,
  units                  text,
  device_type            text NOT NULL,
  category               text NOT NULL,
  description            text,
  available              boolean NOT NULL DEFAULT true,
  default_retention_days integer NOT NULL DEFAULT 30 CHECK (default_retention_days >= 1),
  UNIQUE (device_type, metric_key)
);

-- Device metrics manager (Sys_Admin): which metrics a team's device may store, with retention.
CREATE TABLE device_metric_settings (
  id                       integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id                  integer NOT NULL,
  team_supported_device_id integer NOT NULL,
  metric_key               text NOT NULL,
  metric_name              text NOT NULL,
  metric_units             text,
  is_enabled               boolean NOT NULL DEFAULT false,
  retention_days           integer NOT NULL DEFAULT 30 CHECK (retention_days >= 1),
  FOREIGN KEY (team_id, team_supported_device_id) REFERENCES team_supported_devices (team_id, id) ON DELETE CASCADE,
  UNIQUE (team_supported_device_id, metric_key)
);
CREATE INDEX device_metric_settings_team_idx ON device_metric_settings (team_id);

-- Team data storage (Sys_Admin/Admin): which of the permitted metrics the team stores.
CREATE TABLE team_storage_settings (
  id                integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id           integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  device_type       text NOT NULL,
  metric_key        text NOT NULL,
  metric_name       text NOT NULL,
  units             text,
  device_metric_id  integer REFERENCES metric_catalog (id) ON DELETE SET NULL,
  is_enabled        boolean NOT NULL DEFAULT true,
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (team_id, device_type, metric_key)
);

CREATE TABLE participant_devices (
  id                       integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  participant_id           integer NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
  global_device_catalog_id integer REFERENCES global_device_catalog (id) ON DELETE SET NULL,
  -- which API is behind the link: the Fitbit side is legacy Web API or Google Health API
  provider                 text NOT NULL CHECK (provider IN ('fitbit', 'google_health', 'omron', 'dexcom')),
  authorization_status     text NOT NULL DEFAULT 'pending' CHECK (authorization_status IN ('pending', 'authorized', 'revoked', 'error')),
  authorization_date       timestamptz,
  provider_user_id         text,
  provider_timezone        text,
  notes                    text,
  created_at               timestamptz NOT NULL DEFAULT now(),
  updated_at               timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX participant_devices_one_per_brand ON participant_devices (participant_id, (CASE WHEN provider = 'google_health' THEN 'fitbit' ELSE provider END));

-- OAuth tokens, encrypted at rest (AES-256-GCM); never sent to the browser.
CREATE TABLE provider_tokens (
  participant_device_id integer PRIMARY KEY REFERENCES participant_devices (id) ON DELETE CASCADE,
  access_token_enc      text NOT NULL,
  refresh_token_enc     text,
  scope                 text,
  token_type            text,
  expires_at            timestamptz,
  version               integer NOT NULL DEFAULT 0,  -- bumped on each refresh (single-flight check)
  updated_at            timestamptz NOT NULL DEFAULT now()
);

-- One narrow time series of readings; upserts are idempotent on the key.
CREATE TABLE device_readings (
  participant_id        integer NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
  metric_key            text NOT NULL,
  measured_at           timestamptz NOT NULL,
  local_date            date NOT NULL,
  local_time            time,
  utc_offset_minutes    smallint,
  value                 double precision,
  value_json            jsonb,
  participant_device_id integer REFERENCES participant_devices (id) ON DELETE SET NULL,
  inserted_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (participant_id, metric_key, measured_at)
);
CREATE INDEX device_readings_retention_idx ON device_readings (metric_key, measured_at);

-- Locally saved tracker summary (POST/GET /fitbitDataLocalDB/{id}).
CREATE TABLE participant_summaries (
  participant_id integer PRIMARY KEY REFERENCES participants (id) ON DELETE CASCADE,
  data           jsonb NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now()
);

-- Exports -----------------------------------------------------------------

CREATE TABLE export_jobs (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  team_id       integer NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  user_id       integer REFERENCES users (id) ON DELETE SET NULL,
  trial_id      integer REFERENCES trials (id) ON DELETE SET NULL,
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'completed', 'failed', 'cancelled')),
  job_params    jsonb NOT NULL,
  file_path     text,
  file_size     bigint,
  error_message text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  started_at    timestamptz,
  completed_at  timestamptz,
  expires_at    timestamptz
);
CREATE INDEX export_jobs_team_created_idx ON export_jobs (team_id, created_at DESC);
CREATE INDEX export_jobs_expires_idx ON export_jobs (expires_at) WHERE expires_at IS NOT NULL;

-- Contact Us --------------------------------------------------------------

CREATE TABLE contact_messages (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  first_name  text NOT NULL,
  last_name   text NOT NULL,
  email       text NOT NULL,
  subject     text NOT NULL,
  message     text NOT NULL,
  user_id     integer REFERENCES users (id) ON DELETE SET NULL,
  ip          text,
  mail_status text NOT NULL DEFAULT 'pending' CHECK (mail_status IN ('pending', 'sent', 'failed')),
  mail_error  text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_messages_created_idx ON contact_messages (created_at DESC);

-- Audit log: append-only, hash-chained --------------------------------------

CREATE TABLE audit_log (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  user_id     integer,
  team_id     integer,
  action      text NOT NULL,
  entity_type text NOT NULL,
  entity_id   text,
  before      jsonb,
  after       jsonb,
  request_id  text,
  ip          text,
  prev_hash   text NOT NULL,
  hash        text NOT NULL
);
CREATE INDEX audit_log_team_idx ON audit_log (team_id, occurred_at DESC);
CREATE INDEX audit_log_entity_idx ON audit_log (entity_type, entity_id);

-- Each entry carries the hash of the previous one; an advisory lock serialises
-- writers so the chain has no forks.
CREATE FUNCTION audit_log_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  last_hash text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('audit_log_chain'));
  SELECT hash INTO last_hash FROM audit_log ORDER BY id DESC LIMIT 1;
  NEW.prev_hash := coalesce(last_hash, repeat('0', 64));
  NEW.hash := encode(sha256(convert_to(
    NEW.prev_hash || '|' || NEW.occurred_at::text || '|' || coalesce(NEW.user_id::text, '') || '|' ||
    coalesce(NEW.team_id::text, '') || '|' || NEW.action || '|' || NEW.entity_type || '|' ||
    coalesce(NEW.entity_id, '') || '|' || coalesce(NEW.before::text, '') || '|' ||
    coalesce(NEW.after::text, '') || '|' || coalesce(NEW.request_id, ''), 'UTF8')), 'hex');
  RETURN NEW;
END $$;
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_chain();

CREATE FUNCTION audit_log_forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_forbid_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_forbid_change();

-- Derived team counts (admin spec's actual_num_of_*).
CREATE VIEW team_overview AS
SELECT t.*,
  (SELECT count(*) FROM team_memberships m WHERE m.team_id = t.id)::int AS actual_num_of_users,
  (SELECT count(*) FROM trials tr WHERE tr.team_id = t.id)::int AS actual_num_of_trials,
  (SELECT count(*) FROM participants p WHERE p.team_id = t.id)::int AS actual_num_of_participants
FROM teams t;
