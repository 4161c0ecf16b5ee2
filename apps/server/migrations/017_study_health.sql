-- Study health (issue #23): the stored daily wear and completeness per
-- device, the rules of each trial, the alerts they raise, and who receives
-- the daily digest. Pages and e-mails read these tables; only the background
-- sync and the rules' evaluation write the days and the alerts.

-- Per participant device and participant-local day, written (idempotently,
-- re-read for the last 3 complete days) by the sync. A NULL measure is "no
-- data" (the provider has not synced that day yet), never 0.
CREATE TABLE device_health_days (
  participant_device_id integer NOT NULL REFERENCES participant_devices (id) ON DELETE CASCADE,
  participant_id        integer NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
  local_date            date NOT NULL,
  -- Minutes of the local day with a heart-rate sample (Fitbit, both APIs).
  wear_minutes          integer CHECK (wear_minutes BETWEEN 0 AND 1500),
  -- Share of the day's expected 5-minute CGM readings that arrived (Dexcom).
  cgm_active_percent    numeric(5, 2) CHECK (cgm_active_percent BETWEEN 0 AND 100),
  -- Blood-pressure readings of the day (Omron).
  bp_readings           integer CHECK (bp_readings >= 0),
  -- The team's stored metrics that have a value on this day.
  metrics_present       text[] NOT NULL DEFAULT '{}',
  computed_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (participant_device_id, local_date)
);
-- The page reads a trial's participants' days of a date range in one query.
CREATE INDEX device_health_days_participant_idx ON device_health_days (participant_id, local_date);

-- What the device itself reported at the last sync (the device list's
-- battery and the provider's lastSyncTime), so no page calls the provider.
ALTER TABLE device_sync_state ADD COLUMN provider_last_sync_at timestamptz;
ALTER TABLE device_sync_state ADD COLUMN battery_level smallint CHECK (battery_level BETWEEN 0 AND 100);
ALTER TABLE device_sync_state ADD COLUMN device_checked_at timestamptz;

-- A trial's rules; no row means the defaults (contract study-health.ts).
-- `rules` is the contract's rules object without the zone, validated by its
-- zod schema on every write and read.
CREATE TABLE trial_health_rules (
  trial_id   integer PRIMARY KEY REFERENCES trials (id) ON DELETE CASCADE,
  timezone   text NOT NULL,
  rules      jsonb NOT NULL CHECK (jsonb_typeof(rules) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by integer REFERENCES users (id) ON DELETE SET NULL
);

-- One row per participant × rule while its condition holds; it closes by
-- itself when the condition clears, and can be acknowledged with a note.
CREATE TABLE health_alerts (
  id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id         integer NOT NULL,
  trial_id        integer NOT NULL,
  participant_id  integer NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
  rule_key        text NOT NULL CHECK (rule_key IN
                    ('lowWear', 'noSync', 'lowBattery', 'linkError', 'lowCgmActive', 'noBpReading')),
  opened_at       timestamptz NOT NULL DEFAULT now(),
  closed_at       timestamptz,
  acknowledged_at timestamptz,
  acknowledged_by integer REFERENCES users (id) ON DELETE SET NULL,
  note            text CHECK (length(note) <= 1000),
  detail          jsonb NOT NULL DEFAULT '{}',
  FOREIGN KEY (team_id, trial_id) REFERENCES trials (team_id, id) ON DELETE CASCADE,
  CHECK (closed_at IS NULL OR closed_at >= opened_at),
  CHECK ((acknowledged_at IS NULL) = (note IS NULL))
);
-- Raised once: a second open alert of the same participant and rule is refused.
CREATE UNIQUE INDEX health_alerts_one_open ON health_alerts (participant_id, rule_key) WHERE closed_at IS NULL;
-- A trial's open alerts (the page, the badge, the digest), and its list by state.
CREATE INDEX health_alerts_trial_open_idx ON health_alerts (trial_id, opened_at DESC) WHERE closed_at IS NULL;
CREATE INDEX health_alerts_trial_idx ON health_alerts (trial_id, opened_at DESC);

-- Per trial and staff user: the daily digest opt-in.
CREATE TABLE health_digest_subscriptions (
  trial_id   integer NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  digest     boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (trial_id, user_id)
);
CREATE INDEX health_digest_subscriptions_user_idx ON health_digest_subscriptions (user_id);

-- The digest sent: one row per trial, trial-local day and recipient, taken
-- (INSERT … ON CONFLICT DO NOTHING) before the mail is queued, so that
-- several workers send it exactly once.
CREATE TABLE health_digests_sent (
  trial_id   integer NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  local_date date NOT NULL,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  alert_ids  integer[] NOT NULL DEFAULT '{}',
  sent_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (trial_id, local_date, user_id)
);
