-- REDCap (issue #25 item 3, decision 048): one REDCap project per trial, its
-- token sealed like provider tokens (security/encryption.ts), the fields the
-- portal reads (record id, email) and writes (the repeating instrument's
-- date and the mapped metrics); and the log of pushes shown to the Admin.
CREATE TABLE redcap_settings (
  trial_id         integer PRIMARY KEY REFERENCES trials (id) ON DELETE CASCADE,
  api_url          text NOT NULL CHECK (length(api_url) BETWEEN 1 AND 500),
  token_enc        text NOT NULL,
  record_id_field  text NOT NULL,
  email_field      text,
  instrument       text NOT NULL,
  event_name       text,
  date_field       text NOT NULL,
  -- { metricKey: redcapField }, checked against the project's metadata before it is saved.
  field_map        jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(field_map) = 'object'),
  push_enabled     boolean NOT NULL DEFAULT false,
  -- One push per trial at a time (a manual push and the nightly one): the one holding the lease.
  push_lease_until timestamptz,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  updated_by       integer REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX redcap_settings_push_idx ON redcap_settings (trial_id) WHERE push_enabled;

CREATE TABLE redcap_push_log (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  trial_id    integer NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  trigger     text NOT NULL CHECK (trigger IN ('manual', 'nightly')),
  from_date   date NOT NULL,
  to_date     date NOT NULL CHECK (to_date >= from_date),
  status      text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  attempt     integer NOT NULL DEFAULT 1 CHECK (attempt >= 1),
  will_retry  boolean NOT NULL DEFAULT false,
  records     integer CHECK (records >= 0),
  rows        integer CHECK (rows >= 0),
  error       text CHECK (length(error) <= 2000),
  started_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  started_by  integer REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX redcap_push_log_trial_idx ON redcap_push_log (trial_id, id DESC);
