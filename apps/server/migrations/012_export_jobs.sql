-- Batch data export jobs (issue #12), on top of 001's export_jobs.
--
-- States: pending → processing → completed | failed | cancelled; a completed
-- job whose file was deleted after 7 days is 'expired'. The row is the source
-- of truth (pg-boss only wakes workers): a worker owns a processing job by a
-- lease (lease_owner, lease_expires_at) that it renews while it works, so a
-- killed worker's job is taken over once its lease runs out (attempts counts
-- the takeovers). cancel_requested_at is set by the cancel call; the worker
-- polls its row and stops. storage_key names the file in ExportStorage
-- (visible only once committed); manifest is what manifest.json says of each
-- data file (name, rows, sha256).
ALTER TABLE export_jobs DROP CONSTRAINT IF EXISTS export_jobs_status_check;
ALTER TABLE export_jobs ADD CONSTRAINT export_jobs_status_check
  CHECK (status IN ('pending', 'processing', 'completed', 'failed', 'cancelled', 'expired'));

ALTER TABLE export_jobs ADD COLUMN rows_written bigint NOT NULL DEFAULT 0;
ALTER TABLE export_jobs ADD COLUMN rows_total bigint;
ALTER TABLE export_jobs ADD COLUMN phase text;
ALTER TABLE export_jobs ADD COLUMN cancel_requested_at timestamptz;
ALTER TABLE export_jobs ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE export_jobs ADD COLUMN lease_owner text;
ALTER TABLE export_jobs ADD COLUMN lease_expires_at timestamptz;
ALTER TABLE export_jobs ADD COLUMN not_before timestamptz;
ALTER TABLE export_jobs ADD COLUMN storage_key text;
ALTER TABLE export_jobs ADD COLUMN manifest jsonb;
ALTER TABLE export_jobs ADD COLUMN expired_at timestamptz;
ALTER TABLE export_jobs ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- The per-team slot count and the waiting order.
CREATE INDEX export_jobs_team_active_idx ON export_jobs (team_id, status, created_at)
  WHERE status IN ('pending', 'processing');

-- What the export's fetch step has read from the provider per device and
-- metric: one span of participant-local dates [from_date, to_date], widened
-- by each fetch it touches, so a later export of the same range fetches nothing.
CREATE TABLE export_fetch_coverage (
  participant_device_id integer NOT NULL REFERENCES participant_devices (id) ON DELETE CASCADE,
  metric_key            text NOT NULL,
  from_date             date NOT NULL,
  to_date               date NOT NULL,
  fetched_at            timestamptz NOT NULL,
  PRIMARY KEY (participant_device_id, metric_key)
);
