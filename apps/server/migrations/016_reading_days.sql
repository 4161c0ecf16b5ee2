-- Sync health, incremental (issue #21 §4). refreshHealth used to recount
-- every reading of the device after each sync (1.9 s for a year of minute
-- data); it now reads this small table instead: per participant device and
-- participant-local day, the readings stored, those that show the device was
-- worn, and the day's newest reading with an offset. Statement triggers on
-- device_readings keep it exact from the rows each statement wrote or removed
-- (the sync's upserts, the retention purge, a deleted participant or device),
-- so its cost follows the rows changed, not the table.
CREATE TABLE device_reading_days (
  participant_device_id integer NOT NULL REFERENCES participant_devices (id) ON DELETE CASCADE,
  local_date            date NOT NULL,
  readings              integer NOT NULL,
  worn_readings         integer NOT NULL,
  newest_at             timestamptz,
  newest_offset_minutes smallint,
  PRIMARY KEY (participant_device_id, local_date)
);

-- Wear-time proxy: a day has data when it holds a non-activity reading or
-- some movement, since Fitbit answers 0 steps and the resting burn on days
-- the tracker was not worn.
CREATE FUNCTION device_reading_worn(metric_key text, value double precision) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(
    metric_key <> ALL (ARRAY['steps', 'distance', 'floors', 'calories', 'minutes_sedentary',
                             'minutes_lightly_active', 'minutes_fairly_active', 'minutes_very_active'])
    OR (metric_key = ANY (ARRAY['steps', 'distance', 'floors', 'minutes_lightly_active',
                                'minutes_fairly_active', 'minutes_very_active'])
        AND value > 0),
    false)
$$;

-- A day's newest reading with an offset, looked up in the readings: the
-- participant's metric keys by a skip scan of the primary key (one probe a
-- key), then each key's readings of the days around that date, so the cost
-- follows the day's readings, not the participant's.
CREATE FUNCTION device_reading_day_newest(p_participant integer, p_device integer, p_day date,
  OUT newest_at timestamptz, OUT newest_offset_minutes smallint)
LANGUAGE sql STABLE AS $$
  WITH RECURSIVE k AS (
    (SELECT r.metric_key FROM device_readings r WHERE r.participant_id = p_participant
     ORDER BY r.metric_key LIMIT 1)
    UNION ALL
    SELECT (SELECT r.metric_key FROM device_readings r
            WHERE r.participant_id = p_participant AND r.metric_key > k.metric_key
            ORDER BY r.metric_key LIMIT 1)
    FROM k WHERE k.metric_key IS NOT NULL)
  SELECT x.measured_at, x.utc_offset_minutes FROM device_readings x
  WHERE x.participant_id = p_participant
    AND x.metric_key = ANY (ARRAY(SELECT metric_key FROM k WHERE metric_key IS NOT NULL))
    -- A local date's instants lie within a day and a half of it (offsets −12:00 to +14:00).
    AND x.measured_at > p_day - interval '2 days' AND x.measured_at < p_day + interval '3 days'
    AND x.participant_device_id = p_device AND x.local_date = p_day AND x.utc_offset_minutes IS NOT NULL
  ORDER BY x.measured_at DESC LIMIT 1
$$;

-- Rows in: counts added; the day's newest reading kept when newer.
CREATE FUNCTION device_reading_days_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_reading_days AS d
    (participant_device_id, local_date, readings, worn_readings, newest_at, newest_offset_minutes)
  SELECT g.participant_device_id, g.local_date, g.readings, g.worn, n.measured_at, n.utc_offset_minutes
  FROM (SELECT participant_device_id, local_date, count(*)::int AS readings,
               (count(*) FILTER (WHERE device_reading_worn(metric_key, value)))::int AS worn
        FROM added WHERE participant_device_id IS NOT NULL
        GROUP BY participant_device_id, local_date) g
  LEFT JOIN (SELECT DISTINCT ON (participant_device_id, local_date)
                    participant_device_id, local_date, measured_at, utc_offset_minutes
             FROM added WHERE participant_device_id IS NOT NULL AND utc_offset_minutes IS NOT NULL
             ORDER BY participant_device_id, local_date, measured_at DESC) n
    ON n.participant_device_id = g.participant_device_id AND n.local_date = g.local_date
  -- One order for every writer: two statements never wait for each other's days crosswise.
  ORDER BY g.participant_device_id, g.local_date
  ON CONFLICT (participant_device_id, local_date) DO UPDATE SET
    readings = d.readings + excluded.readings,
    worn_readings = d.worn_readings + excluded.worn_readings,
    newest_offset_minutes = CASE WHEN d.newest_at IS NULL OR excluded.newest_at >= d.newest_at
      THEN excluded.newest_offset_minutes ELSE d.newest_offset_minutes END,
    newest_at = CASE WHEN d.newest_at IS NULL OR excluded.newest_at >= d.newest_at
      THEN excluded.newest_at ELSE d.newest_at END;
  RETURN NULL;
END $$;

-- Rows out: counts taken off, a day left without readings removed, and a day
-- whose newest reading went looks its newest up again among its own readings
-- (rare: the purge removes a device's old readings, and a sync's update keeps
-- the reading's instant and day).
CREATE FUNCTION device_reading_days_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE device_reading_days d SET
    readings = d.readings - g.readings,
    worn_readings = d.worn_readings - g.worn
  FROM (SELECT participant_device_id, local_date, count(*)::int AS readings,
               (count(*) FILTER (WHERE device_reading_worn(metric_key, value)))::int AS worn
        FROM removed WHERE participant_device_id IS NOT NULL
        GROUP BY participant_device_id, local_date) g
  WHERE d.participant_device_id = g.participant_device_id AND d.local_date = g.local_date;
  DELETE FROM device_reading_days d
  USING (SELECT DISTINCT participant_device_id, local_date FROM removed
         WHERE participant_device_id IS NOT NULL) r
  WHERE d.participant_device_id = r.participant_device_id AND d.local_date = r.local_date
    AND d.readings <= 0;
  UPDATE device_reading_days d SET (newest_at, newest_offset_minutes) = (
    SELECT * FROM device_reading_day_newest(l.participant_id, d.participant_device_id, d.local_date))
  FROM (SELECT DISTINCT o.participant_id, o.participant_device_id, o.local_date, o.measured_at FROM removed o
        WHERE o.participant_device_id IS NOT NULL AND o.utc_offset_minutes IS NOT NULL) l
  WHERE d.participant_device_id = l.participant_device_id AND d.local_date = l.local_date
    AND l.measured_at >= d.newest_at;
  RETURN NULL;
END $$;

-- A changed row is the old one out and the new one in.
CREATE FUNCTION device_reading_days_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE device_reading_days d SET
    readings = d.readings - g.readings,
    worn_readings = d.worn_readings - g.worn
  FROM (SELECT participant_device_id, local_date, count(*)::int AS readings,
               (count(*) FILTER (WHERE device_reading_worn(metric_key, value)))::int AS worn
        FROM removed WHERE participant_device_id IS NOT NULL
        GROUP BY participant_device_id, local_date) g
  WHERE d.participant_device_id = g.participant_device_id AND d.local_date = g.local_date;
  INSERT INTO device_reading_days AS d
    (participant_device_id, local_date, readings, worn_readings, newest_at, newest_offset_minutes)
  SELECT g.participant_device_id, g.local_date, g.readings, g.worn, n.measured_at, n.utc_offset_minutes
  FROM (SELECT participant_device_id, local_date, count(*)::int AS readings,
               (count(*) FILTER (WHERE device_reading_worn(metric_key, value)))::int AS worn
        FROM added WHERE participant_device_id IS NOT NULL
        GROUP BY participant_device_id, local_date) g
  LEFT JOIN (SELECT DISTINCT ON (participant_device_id, local_date)
                    participant_device_id, local_date, measured_at, utc_offset_minutes
             FROM added WHERE participant_device_id IS NOT NULL AND utc_offset_minutes IS NOT NULL
             ORDER BY participant_device_id, local_date, measured_at DESC) n
    ON n.participant_device_id = g.participant_device_id AND n.local_date = g.local_date
  -- One order for every writer: two statements never wait for each other's days crosswise.
  ORDER BY g.participant_device_id, g.local_date
  ON CONFLICT (participant_device_id, local_date) DO UPDATE SET
    readings = d.readings + excluded.readings,
    worn_readings = d.worn_readings + excluded.worn_readings,
    newest_offset_minutes = CASE WHEN d.newest_at IS NULL OR excluded.newest_at >= d.newest_at
      THEN excluded.newest_offset_minutes ELSE d.newest_offset_minutes END,
    newest_at = CASE WHEN d.newest_at IS NULL OR excluded.newest_at >= d.newest_at
      THEN excluded.newest_at ELSE d.newest_at END;
  DELETE FROM device_reading_days d
  USING (SELECT DISTINCT participant_device_id, local_date FROM removed
         WHERE participant_device_id IS NOT NULL) r
  WHERE d.participant_device_id = r.participant_device_id AND d.local_date = r.local_date
    AND d.readings <= 0;
  UPDATE device_reading_days d SET (newest_at, newest_offset_minutes) = (
    SELECT * FROM device_reading_day_newest(l.participant_id, d.participant_device_id, d.local_date))
  FROM (SELECT DISTINCT o.participant_id, o.participant_device_id, o.local_date, o.measured_at FROM removed o
        WHERE o.participant_device_id IS NOT NULL AND o.utc_offset_minutes IS NOT NULL
          -- Not replaced by the same reading on the same day (an update keeps its instant).
          AND NOT EXISTS (SELECT 1 FROM added a
            WHERE a.participant_id = o.participant_id AND a.metric_key = o.metric_key
              AND a.measured_at = o.measured_at AND a.participant_device_id = o.participant_device_id
              AND a.local_date = o.local_date AND a.utc_offset_minutes IS NOT NULL)) l
  WHERE d.participant_device_id = l.participant_device_id AND d.local_date = l.local_date
    AND l.measured_at >= d.newest_at;
  RETURN NULL;
END $$;

CREATE FUNCTION device_reading_days_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM device_reading_days;
  RETURN NULL;
END $$;

-- INSERT … ON CONFLICT DO UPDATE fires both: the inserted rows in one, the updated in the other.
CREATE TRIGGER device_reading_days_insert AFTER INSERT ON device_readings
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION device_reading_days_inserted();
CREATE TRIGGER device_reading_days_update AFTER UPDATE ON device_readings
  REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION device_reading_days_updated();
CREATE TRIGGER device_reading_days_delete AFTER DELETE ON device_readings
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION device_reading_days_deleted();
CREATE TRIGGER device_reading_days_truncate AFTER TRUNCATE ON device_readings
  FOR EACH STATEMENT EXECUTE FUNCTION device_reading_days_truncated();

-- The readings stored so far.
INSERT INTO device_reading_days
  (participant_device_id, local_date, readings, worn_readings, newest_at, newest_offset_minutes)
SELECT g.participant_device_id, g.local_date, g.readings, g.worn, n.measured_at, n.utc_offset_minutes
FROM (SELECT participant_device_id, local_date, count(*)::int AS readings,
             (count(*) FILTER (WHERE device_reading_worn(metric_key, value)))::int AS worn
      FROM device_readings WHERE participant_device_id IS NOT NULL
      GROUP BY participant_device_id, local_date) g
LEFT JOIN (SELECT DISTINCT ON (participant_device_id, local_date)
                  participant_device_id, local_date, measured_at, utc_offset_minutes
           FROM device_readings WHERE participant_device_id IS NOT NULL AND utc_offset_minutes IS NOT NULL
           ORDER BY participant_device_id, local_date, measured_at DESC) n
  ON n.participant_device_id = g.participant_device_id AND n.local_date = g.local_date;
