-- Study health's e-mail (issue #23 item 5): the digest row claimed per trial,
-- trial-local date and recipient (017) is also the mail's durable queue
-- entry, and an opened linkError alert queues one row per recipient. Both are
-- written in the transaction that decides to send (the claim, the alert's
-- opening); a job delivers the rows not yet mailed, one row locked at a time
-- (FOR UPDATE SKIP LOCKED) and marked mailed in the same transaction as its
-- send, so several workers never send one twice (decision 033).

-- The alerts of the digest that are new since the recipient's previous one,
-- and when its mail went out (NULL: not yet; a digest without alerts sends
-- nothing and is never mailed).
ALTER TABLE health_digests_sent ADD COLUMN new_alert_ids integer[] NOT NULL DEFAULT '{}';
ALTER TABLE health_digests_sent ADD COLUMN mailed_at timestamptz;
CREATE INDEX health_digests_sent_unmailed_idx ON health_digests_sent (sent_at)
  WHERE mailed_at IS NULL AND cardinality(alert_ids) > 0;
-- The recipient's previous digest of the trial (what is new since).
CREATE INDEX health_digests_sent_user_idx ON health_digests_sent (trial_id, user_id, local_date DESC);

-- The immediate e-mail of an opened linkError alert, one row per recipient,
-- queued in the transaction that opens the alert.
CREATE TABLE health_alert_mails (
  alert_id  integer NOT NULL REFERENCES health_alerts (id) ON DELETE CASCADE,
  user_id   integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  queued_at timestamptz NOT NULL DEFAULT now(),
  mailed_at timestamptz,
  PRIMARY KEY (alert_id, user_id)
);
CREATE INDEX health_alert_mails_unmailed_idx ON health_alert_mails (queued_at) WHERE mailed_at IS NULL;
