-- The study-health page's answer takes each participant's stored days as
-- PostgreSQL writes them into JSON, without reading them again in Node
-- (features/study-health/repo.ts healthDays, decision 035), so a day's
-- metrics must already be what the answer shows: a set, sorted in code-point
-- order (as JavaScript sorts, whatever the database's collation), and its
-- JSON text kept beside it (array_to_json for every one of 90,000 days was a
-- quarter of the 90-day read). The sync writes sorted sets; this trigger
-- keeps every writer's so and writes the JSON; the update fills the rows
-- written before.
CREATE FUNCTION sorted_metric_set(metrics text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT m COLLATE "C" ORDER BY m COLLATE "C"), '{}') FROM unnest(metrics) AS m
$$;

-- The default is metrics_present's ('{}'), in JSON; the trigger writes every row's own.
ALTER TABLE device_health_days ADD COLUMN metrics_json text NOT NULL DEFAULT '[]';

CREATE FUNCTION device_health_days_metric_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- NULL stays NULL: the column's NOT NULL refuses it.
  IF NEW.metrics_present IS NOT NULL THEN
    NEW.metrics_present := sorted_metric_set(NEW.metrics_present);
    NEW.metrics_json := array_to_json(NEW.metrics_present)::text;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER device_health_days_metric_set
  BEFORE INSERT OR UPDATE OF metrics_present, metrics_json ON device_health_days
  FOR EACH ROW EXECUTE FUNCTION device_health_days_metric_set();

UPDATE device_health_days SET metrics_present = metrics_present;
