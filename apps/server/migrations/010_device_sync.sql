-- Background sync of device data (issue #11 items 4 and 5).
--
-- Provenance of each stored reading: which provider answered and when it was
-- fetched (the device is participant_device_id). NULL for rows written
-- before the sync existed.
ALTER TABLE device_readings ADD COLUMN provider text;
ALTER TABLE device_readings ADD COLUMN fetched_at timestamptz;

-- Per participant device: the provider budget (calls in the current hour),
-- when the provider allows the next call (Retry-After), and the health the
-- trial page shows (last success, last error, rows stored, share of the last
-- 7 local days with data, the newest day with data).
CREATE TABLE device_sync_state (
  participant_device_id integer PRIMARY KEY REFERENCES participant_devices (id) ON DELETE CASCADE,
  budget_hour           timestamptz,
  budget_calls          integer NOT NULL DEFAULT 0,
  next_allowed_at       timestamptz,
  last_attempt_at       timestamptz,
  last_success_at       timestamptz,
  last_error            text,
  last_error_at         timestamptz,
  rows_stored           integer NOT NULL DEFAULT 0,
  days_with_data_7d     smallint NOT NULL DEFAULT 0,
  last_data_date        date
);

-- Per participant device and metric: the cursor the next sync starts from.
-- Daily Fitbit values are re-read from the cursor's local date (today's
-- value still grows); Omron and Dexcom readings from the cursor's instant.
CREATE TABLE device_sync_cursors (
  participant_device_id integer NOT NULL REFERENCES participant_devices (id) ON DELETE CASCADE,
  metric_key            text NOT NULL,
  cursor_date           date,
  cursor_at             timestamptz,
  last_success_at       timestamptz,
  rows_upserted         integer NOT NULL DEFAULT 0,
  PRIMARY KEY (participant_device_id, metric_key)
);
