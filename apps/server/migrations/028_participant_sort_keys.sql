-- The trial page sorted by Code or Email on the server (decision 040, issue #24
-- item 5): the natural sort key of each row (case-insensitive, runs of digits by
-- value) was computed with a regular expression for every participant of the
-- trial on every page, 16 ms at 5,000 participants. One function computes it,
-- and an index per column and direction holds it in order, so a page reads its
-- 50 index entries (ties by id in both directions, as the list orders them).
CREATE FUNCTION natural_sort_key(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN coalesce((
    SELECT string_agg(CASE WHEN r.m[1] ~ '^[0-9]' THEN lpad(r.m[1], 30, '0') ELSE r.m[1] END, '' ORDER BY r.n)
    FROM regexp_matches(lower(t), '[0-9]+|[^0-9]+', 'g') WITH ORDINALITY AS r(m, n)
  ), '');

CREATE INDEX participants_trial_code_sort_idx
  ON participants (trial_id, (natural_sort_key(coalesce(participant_code, ''))) COLLATE "C", id);
CREATE INDEX participants_trial_code_sort_desc_idx
  ON participants (trial_id, (natural_sort_key(coalesce(participant_code, ''))) COLLATE "C" DESC NULLS LAST, id);
CREATE INDEX participants_trial_email_sort_idx
  ON participants (trial_id, (natural_sort_key(email)) COLLATE "C", id);
CREATE INDEX participants_trial_email_sort_desc_idx
  ON participants (trial_id, (natural_sort_key(email)) COLLATE "C" DESC NULLS LAST, id);
