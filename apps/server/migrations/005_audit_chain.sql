-- The audit chain as one line (issue: two writers could link to the same
-- previous entry). Each entry gets a chain position (chain_seq) and its
-- prev_hash from a single chain-head row locked FOR UPDATE in the writer's
-- transaction: a second writer waits for the first to commit and then reads
-- its hash (READ COMMITTED re-reads a row it waited for), so links are
-- assigned serially in commit order. The hash covers a canonical text of the
-- entry (UTC time, jsonb text), so `verify-audit` can recompute it.
--
-- The function is SECURITY DEFINER, owned by the schema owner: the
-- application role may only INSERT and SELECT audit_log and cannot touch the
-- chain head (grants are applied at start, see src/db/roles.ts).

CREATE TABLE audit_chain_head (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  last_seq  bigint NOT NULL,
  last_hash text NOT NULL
);

ALTER TABLE audit_log ADD COLUMN chain_seq bigint;

CREATE FUNCTION audit_entry_hash(
  prev_hash text, occurred_at timestamptz, user_id integer, team_id integer, action text,
  entity_type text, entity_id text, before jsonb, after jsonb, request_id text, ip text
) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(
    prev_hash || '|' || to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' ||
    coalesce(user_id::text, '') || '|' || coalesce(team_id::text, '') || '|' || action || '|' ||
    entity_type || '|' || coalesce(entity_id, '') || '|' || coalesce(before::text, '') || '|' ||
    coalesce(after::text, '') || '|' || coalesce(request_id, '') || '|' || coalesce(ip, ''), 'UTF8')), 'hex')
$$;

-- Re-link the entries written so far in the new form, in id order (they were
-- written by one process at a time until now). The append-only trigger is
-- lifted for this one statement inside the migration's transaction.
ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update;
DO $$
DECLARE
  r record;
  prev text := repeat('0', 64);
  seq bigint := 0;
BEGIN
  FOR r IN SELECT * FROM audit_log ORDER BY id LOOP
    seq := seq + 1;
    UPDATE audit_log SET chain_seq = seq, prev_hash = prev,
      hash = audit_entry_hash(prev, r.occurred_at, r.user_id, r.team_id, r.action, r.entity_type,
                              r.entity_id, r.before, r.after, r.request_id, r.ip)
    WHERE id = r.id
    RETURNING hash INTO prev;
  END LOOP;
  INSERT INTO audit_chain_head (last_seq, last_hash) VALUES (seq, prev);
END $$;
ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update;

ALTER TABLE audit_log ALTER COLUMN chain_seq SET NOT NULL;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_chain_seq_key UNIQUE (chain_seq);

CREATE OR REPLACE FUNCTION audit_log_chain() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  head audit_chain_head%ROWTYPE;
BEGIN
  SELECT * INTO head FROM audit_chain_head WHERE singleton FOR UPDATE;
  NEW.chain_seq := head.last_seq + 1;
  NEW.prev_hash := head.last_hash;
  NEW.hash := audit_entry_hash(NEW.prev_hash, NEW.occurred_at, NEW.user_id, NEW.team_id, NEW.action,
                               NEW.entity_type, NEW.entity_id, NEW.before, NEW.after, NEW.request_id, NEW.ip);
  UPDATE audit_chain_head SET last_seq = NEW.chain_seq, last_hash = NEW.hash WHERE singleton;
  RETURN NEW;
END $$;

-- Results of `verify-audit` (CLI or the daily job), shown to Sys_Admins.
CREATE TABLE audit_verifications (
  id           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  verified_at  timestamptz NOT NULL DEFAULT now(),
  ok           boolean NOT NULL,
  entries      bigint NOT NULL,
  head_seq     bigint NOT NULL,
  head_hash    text NOT NULL,
  first_break  jsonb,
  source       text NOT NULL CHECK (source IN ('cli', 'job'))
);
CREATE INDEX audit_verifications_time_idx ON audit_verifications (verified_at DESC);
