-- A study-health mail that keeps failing (the recipient's server refuses it,
-- SMTP is misconfigured) was tried again at every run of the digest job (every
-- 15 minutes) for ever, with nothing but a log line. Each failed try is now
-- counted with its error; after the last allowed try the mail is given up:
-- marked, and an audit row says so (jobs/study-health/mail.ts). Adding columns
-- with a constant default rewrites no row (PostgreSQL 11+).
ALTER TABLE health_digests_sent
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN last_error text,
  ADD COLUMN given_up_at timestamptz;
ALTER TABLE health_alert_mails
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN last_error text,
  ADD COLUMN given_up_at timestamptz;

-- The queues to deliver leave out what was given up.
DROP INDEX health_digests_sent_unmailed_idx;
CREATE INDEX health_digests_sent_unmailed_idx ON health_digests_sent (sent_at)
  WHERE mailed_at IS NULL AND given_up_at IS NULL AND cardinality(alert_ids) > 0;
DROP INDEX health_alert_mails_unmailed_idx;
CREATE INDEX health_alert_mails_unmailed_idx ON health_alert_mails (queued_at)
  WHERE mailed_at IS NULL AND given_up_at IS NULL;
