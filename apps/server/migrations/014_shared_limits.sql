-- Shared request limits (issue #15): one budget for every server on the
-- database. One row per limited key (route and client IP for the per-IP
-- limits of @fastify/rate-limit, or an account name for the per-account
-- throttles): the hits of its current fixed window and when the window ends.
-- http/shared-limits.ts counts a hit with one atomic upsert. The lockout
-- counters (login_lockouts) and the provider call budgets (device_sync_state)
-- were already kept here.
--
-- UNLOGGED: a counter lives a window (minutes), so it is not worth a WAL
-- record per hit; a database crash forgets the windows in progress (never a
-- lock: login_lockouts is an ordinary table).
CREATE UNLOGGED TABLE rate_limit_hits (
  key        text PRIMARY KEY,
  hits       integer NOT NULL CHECK (hits > 0),
  expires_at timestamptz NOT NULL
);
-- The hourly cleanup (jobs/expired-tokens) deletes ended windows.
CREATE INDEX rate_limit_hits_expires_idx ON rate_limit_hits (expires_at);
