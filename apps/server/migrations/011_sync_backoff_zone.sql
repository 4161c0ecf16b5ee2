-- Background sync, continued (issue #11 items 4 and 5).
--
-- failure_streak: provider failures (5xx, no answer) in a row for the device;
-- the next allowed call after the n-th is about base × 2^(n-1) later, with
-- jitter, and a success resets it (jobs/device-sync/sync-device.ts).
--
-- time_zone / utc_offset_minutes: where the participant's "today" is, for
-- sync health's 'No data for 3 days'. Fitbit links keep the profile's IANA
-- zone (checked against PostgreSQL's own zone list when stored); Omron and
-- Dexcom readings carry offsets, so those keep the offset of the newest
-- reading.
ALTER TABLE device_sync_state ADD COLUMN failure_streak integer NOT NULL DEFAULT 0;
ALTER TABLE device_sync_state ADD COLUMN time_zone text;
ALTER TABLE device_sync_state ADD COLUMN utc_offset_minutes smallint;

-- The per-app budget (issue #11 item 4: "a budget per user and per app"):
-- provider calls of the background sync in the current clock hour across
-- every device, per provider (Dexcom allows 60,000 per app and hour). One
-- row per provider, counted by the same statement that allows the call.
CREATE TABLE sync_app_budget (
  provider     text PRIMARY KEY,
  budget_hour  timestamptz NOT NULL,
  budget_calls integer NOT NULL
);
