-- Temporary, escalating sign-in lockout (issue #9). The state is kept per
-- normalised username (lower case), also for names that belong to no
-- account: an unknown username counts failures and locks exactly like a
-- known one, so neither the lock nor its answer tells anybody whether an
-- account exists. Lock n lasts 15 minutes × 2^(n-1), at most 24 hours
-- (features/auth/lockout.ts); a full sign-in, a password reset or an unlock
-- deletes the row.
CREATE TABLE login_lockouts (
  username_key    text PRIMARY KEY,
  failed_attempts integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
  lock_count      integer NOT NULL DEFAULT 0 CHECK (lock_count >= 0),
  locked_until    timestamptz,
  last_failed_at  timestamptz NOT NULL
);
-- The Sys_Admin's list of locked accounts.
CREATE INDEX login_lockouts_locked_idx ON login_lockouts (locked_until) WHERE locked_until IS NOT NULL;

-- Today's state carries over; a lock without end becomes a first lock of 15 minutes from now.
INSERT INTO login_lockouts (username_key, failed_attempts, lock_count, locked_until, last_failed_at)
SELECT lower(username),
       CASE WHEN locked_at IS NULL THEN failed_attempts ELSE 0 END,
       CASE WHEN locked_at IS NULL THEN 0 ELSE 1 END,
       CASE WHEN locked_at IS NULL THEN NULL ELSE now() + interval '15 minutes' END,
       coalesce(locked_at, now())
FROM users
WHERE failed_attempts > 0 OR locked_at IS NOT NULL;

ALTER TABLE users DROP COLUMN failed_attempts, DROP COLUMN locked_at;
