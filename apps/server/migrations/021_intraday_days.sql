-- Minute-level data stored compactly (issue #24 item 2, decision 039).
--
-- One row per participant, intraday metric and participant-local day holds
-- the day's samples in one array: samples[i + 1] is the value measured at
-- start_at + i × step_seconds (NULL: no sample that minute). start_at is the
-- instant of the day's local midnight (as the first sample's offset puts it);
-- the offset in force is utc_offset_minutes, or from a sample index on the
-- offset a pair of offset_shifts names (a DST change: [index, offset, …]).
-- A row per reading cost 251 bytes per minute (bench/intraday-storage); this
-- costs about 8 bytes, and a day is one index entry instead of 1,440.
--
-- The table is partitioned by month of local_date (declarative partitioning;
-- the embedded PostgreSQL has no extension). Partitions are made ahead by
-- the intraday-partitions job and, for a backfill of older months, by the
-- write path (intraday_ensure_partitions); the retention purge drops a month
-- whose every day has expired (intraday_drop_month) and deletes only at the
-- edges. Statement triggers keep device_reading_days (016) counting the
-- samples, as for readings; a dropped month is taken off by the same
-- function that drops it.

-- Steps per minute (item 1): a metric of its own beside the daily steps; heart rate at 1-second
-- detail apart from the 1-minute one (a team enables it only when its study needs it).
INSERT INTO metric_catalog (metric_key, metric_name, units, device_type, category, description, default_retention_days)
VALUES ('steps_intraday', 'Intraday steps', 'steps', 'fitness_tracker', 'Activity', 'Steps per minute through the day', 30),
       ('heart_rate_1sec', 'Heart rate (1-second detail)', 'bpm', 'fitness_tracker', 'Heart',
        'Heart rate samples every 1 to 15 seconds while the tracker records', 30);

-- A minute of steps shows wear only when it has steps, as a day of steps does (016).
CREATE OR REPLACE FUNCTION device_reading_worn(metric_key text, value double precision) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(
    metric_key <> ALL (ARRAY['steps', 'steps_intraday', 'distance', 'floors', 'calories', 'minutes_sedentary',
                             'minutes_lightly_active', 'minutes_fairly_active', 'minutes_very_active'])
    OR (metric_key = ANY (ARRAY['steps', 'steps_intraday', 'distance', 'floors', 'minutes_lightly_active',
                                'minutes_fairly_active', 'minutes_very_active'])
        AND value > 0),
    false)
$$;

CREATE TABLE intraday_days (
  participant_id        integer NOT NULL,
  team_id               integer NOT NULL,
  metric_key            text NOT NULL,
  local_date            date NOT NULL,
  start_at              timestamptz NOT NULL,
  step_seconds          integer NOT NULL CHECK (step_seconds > 0),
  utc_offset_minutes    smallint NOT NULL,
  offset_shifts         integer[],
  samples               double precision[] NOT NULL,
  -- Samples that are not NULL, and those showing wear (device_reading_worn).
  value_count           integer NOT NULL,
  worn_count            integer NOT NULL,
  -- The day's newest sample and its offset (sync health's "today", as 016 keeps it).
  newest_at             timestamptz NOT NULL,
  newest_offset_minutes smallint NOT NULL,
  participant_device_id integer REFERENCES participant_devices (id) ON DELETE SET NULL,
  provider              text,
  fetched_at            timestamptz,
  inserted_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (participant_id, metric_key, local_date),
  FOREIGN KEY (participant_id, team_id) REFERENCES participants (id, team_id) ON DELETE CASCADE
) PARTITION BY RANGE (local_date);
-- The export of a team in order and the retention purge of a team × metric.
CREATE INDEX intraday_days_team_metric_date_idx ON intraday_days (team_id, metric_key, local_date);

-- The month partitions that hold first_day … last_day, made where missing.
-- SECURITY DEFINER: a partition is the owner's table (the application role
-- owns none); it can add empty months only.
CREATE FUNCTION intraday_ensure_partitions(first_day date, last_day date) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  m date := date_trunc('month', first_day)::date;
  part text;
BEGIN
  IF last_day - first_day > 3700 THEN
    RAISE EXCEPTION 'intraday partitions: range too wide (% to %)', first_day, last_day;
  END IF;
  WHILE m <= last_day LOOP
    part := format('intraday_days_%s', to_char(m, 'YYYY_MM'));
    IF to_regclass(part) IS NULL THEN
      -- One creator at a time; whoever waited sees the other's table.
      PERFORM pg_advisory_xact_lock(hashtext('intraday_days partitions'));
      IF to_regclass(part) IS NULL THEN
        BEGIN
          EXECUTE format('CREATE TABLE %I PARTITION OF intraday_days FOR VALUES FROM (%L) TO (%L)',
                         part, m, (m + interval '1 month')::date);
        EXCEPTION WHEN duplicate_table THEN
          NULL; -- made by a transaction that committed while this one waited: there it is
        END;
      END IF;
    END IF;
    m := (m + interval '1 month')::date;
  END LOOP;
END $$;

-- The offset in force at sample index i (0-based).
CREATE FUNCTION intraday_offset_at(base smallint, shifts integer[], i integer) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce((SELECT shifts[2 * k] FROM generate_series(1, coalesce(array_length(shifts, 1), 0) / 2) k
                   WHERE shifts[2 * k - 1] <= i ORDER BY k DESC LIMIT 1), base)::smallint
$$;

-- A day's newest reading: among the device's readings of that day and its intraday days.
CREATE OR REPLACE FUNCTION device_reading_day_newest(p_participant integer, p_device integer, p_day date,
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
  SELECT n.at, n.off FROM (
    (SELECT x.measured_at AS at, x.utc_offset_minutes AS off FROM device_readings x
     WHERE x.participant_id = p_participant
       AND x.metric_key = ANY (ARRAY(SELECT metric_key FROM k WHERE metric_key IS NOT NULL))
       -- A local date's instants lie within a day and a half of it (offsets −12:00 to +14:00).
       AND x.measured_at > p_day - interval '2 days' AND x.measured_at < p_day + interval '3 days'
       AND x.participant_device_id = p_device AND x.local_date = p_day AND x.utc_offset_minutes IS NOT NULL
     ORDER BY x.measured_at DESC LIMIT 1)
    UNION ALL
    (SELECT i.newest_at, i.newest_offset_minutes FROM intraday_days i
     WHERE i.participant_id = p_participant AND i.local_date = p_day AND i.participant_device_id = p_device
     ORDER BY i.newest_at DESC LIMIT 1)) n
  ORDER BY n.at DESC LIMIT 1
$$;

-- The day rows as readings, one per sample, in device_readings' columns (the
-- export and the data pages read a participant's metric this way). Filters on
-- participant_id, metric_key, team_id and local_date reach the day rows'
-- keys; sample_index (0-based) orders a day's samples in time.
CREATE VIEW intraday_readings AS
SELECT d.participant_id, d.team_id, d.metric_key, d.local_date,
       d.start_at + (s.n - 1) * d.step_seconds * interval '1 second' AS measured_at,
       ((d.start_at + (s.n - 1) * d.step_seconds * interval '1 second') AT TIME ZONE 'UTC'
         + o.off * interval '1 minute')::time AS local_time,
       o.off AS utc_offset_minutes,
       s.value,
       NULL::jsonb AS value_json,
       d.participant_device_id, d.provider, d.fetched_at, d.inserted_at,
       (s.n - 1)::int AS sample_index
FROM intraday_days d
CROSS JOIN LATERAL unnest(d.samples) WITH ORDINALITY AS s(value, n)
CROSS JOIN LATERAL (SELECT CASE WHEN d.offset_shifts IS NULL THEN d.utc_offset_minutes
                                ELSE intraday_offset_at(d.utc_offset_minutes, d.offset_shifts, (s.n - 1)::int)
                           END AS off) o
WHERE s.value IS NOT NULL;

-- Days in: their samples counted; the day's newest kept when newer.
CREATE FUNCTION intraday_days_add_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_reading_days AS d
    (participant_device_id, local_date, readings, worn_readings, newest_at, newest_offset_minutes)
  SELECT g.participant_device_id, g.local_date, g.readings, g.worn, n.newest_at, n.newest_offset_minutes
  FROM (SELECT participant_device_id, local_date, sum(value_count)::int AS readings, sum(worn_count)::int AS worn
        FROM added WHERE participant_device_id IS NOT NULL
        GROUP BY participant_device_id, local_date) g
  JOIN (SELECT DISTINCT ON (participant_device_id, local_date)
               participant_device_id, local_date, newest_at, newest_offset_minutes
        FROM added WHERE participant_device_id IS NOT NULL
        ORDER BY participant_device_id, local_date, newest_at DESC) n
    ON n.participant_device_id = g.participant_device_id AND n.local_date = g.local_date
  -- One order for every writer (as 016): two statements never wait for each other's days crosswise.
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

-- Days out: their samples taken off, a day left without readings removed, a
-- day whose newest went looking its newest up again.
CREATE FUNCTION intraday_days_take_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE device_reading_days d SET
    readings = d.readings - g.readings,
    worn_readings = d.worn_readings - g.worn
  FROM (SELECT participant_device_id, local_date, sum(value_count)::int AS readings, sum(worn_count)::int AS worn
        FROM removed WHERE participant_device_id IS NOT NULL
        GROUP BY participant_device_id, local_date) g
  WHERE d.participant_device_id = g.participant_device_id AND d.local_date = g.local_date;
  DELETE FROM device_reading_days d
  USING (SELECT DISTINCT participant_device_id, local_date FROM removed WHERE participant_device_id IS NOT NULL) r
  WHERE d.participant_device_id = r.participant_device_id AND d.local_date = r.local_date AND d.readings <= 0;
  UPDATE device_reading_days d SET (newest_at, newest_offset_minutes) = (
    SELECT * FROM device_reading_day_newest(l.participant_id, d.participant_device_id, d.local_date))
  FROM (SELECT DISTINCT participant_id, participant_device_id, local_date, newest_at FROM removed
        WHERE participant_device_id IS NOT NULL) l
  WHERE d.participant_device_id = l.participant_device_id AND d.local_date = l.local_date
    AND l.newest_at >= d.newest_at;
  RETURN NULL;
END $$;

-- A changed day is the old one out, then the new one in (the newest looked up once both are there).
CREATE FUNCTION intraday_days_update_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE device_reading_days d SET
    readings = d.readings - g.readings,
    worn_readings = d.worn_readings - g.worn
  FROM (SELECT participant_device_id, local_date, sum(value_count)::int AS readings, sum(worn_count)::int AS worn
        FROM removed WHERE participant_device_id IS NOT NULL
        GROUP BY participant_device_id, local_date) g
  WHERE d.participant_device_id = g.participant_device_id AND d.local_date = g.local_date;
  INSERT INTO device_reading_days AS d
    (participant_device_id, local_date, readings, worn_readings, newest_at, newest_offset_minutes)
  SELECT participant_device_id, local_date, sum(value_count)::int, sum(worn_count)::int, NULL, NULL
  FROM added WHERE participant_device_id IS NOT NULL
  GROUP BY participant_device_id, local_date
  ORDER BY participant_device_id, local_date
  ON CONFLICT (participant_device_id, local_date) DO UPDATE SET
    readings = d.readings + excluded.readings,
    worn_readings = d.worn_readings + excluded.worn_readings;
  DELETE FROM device_reading_days d
  USING (SELECT DISTINCT participant_device_id, local_date FROM removed WHERE participant_device_id IS NOT NULL) r
  WHERE d.participant_device_id = r.participant_device_id AND d.local_date = r.local_date AND d.readings <= 0;
  UPDATE device_reading_days d SET (newest_at, newest_offset_minutes) = (
    SELECT * FROM device_reading_day_newest(l.participant_id, d.participant_device_id, d.local_date))
  FROM (SELECT DISTINCT participant_id, participant_device_id, local_date FROM added
        WHERE participant_device_id IS NOT NULL
        UNION
        SELECT DISTINCT participant_id, participant_device_id, local_date FROM removed
        WHERE participant_device_id IS NOT NULL) l
  WHERE d.participant_device_id = l.participant_device_id AND d.local_date = l.local_date;
  RETURN NULL;
END $$;

CREATE TRIGGER intraday_days_insert AFTER INSERT ON intraday_days
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION intraday_days_add_counts();
CREATE TRIGGER intraday_days_update AFTER UPDATE ON intraday_days
  REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION intraday_days_update_counts();
CREATE TRIGGER intraday_days_delete AFTER DELETE ON intraday_days
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION intraday_days_take_counts();

-- The retention purge of a month whose every day has expired: its days taken
-- off device_reading_days (a DROP fires no trigger), then the partition
-- dropped, in the caller's transaction (with its audit rows). Answers the
-- samples removed per team and metric. SECURITY DEFINER: only the owner may
-- drop a table; this drops only a month partition of intraday_days, which
-- the application role could empty with DELETE anyway.
CREATE FUNCTION intraday_drop_month(month date)
RETURNS TABLE (team_id integer, metric_key text, samples bigint, days bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  part text := format('intraday_days_%s', to_char(month, 'YYYY_MM'));
BEGIN
  IF to_regclass(part) IS NULL OR NOT EXISTS (
       SELECT 1 FROM pg_inherits WHERE inhrelid = to_regclass(part) AND inhparent = 'intraday_days'::regclass) THEN
    RETURN;
  END IF;
  -- No writer adds to the month meanwhile (ACCESS EXCLUSIVE, as DROP takes anyway).
  EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', part);
  EXECUTE format($q$
    WITH removed AS (SELECT participant_device_id, local_date, value_count, worn_count FROM %I),
    counts AS (
      UPDATE device_reading_days d SET readings = d.readings - g.readings, worn_readings = d.worn_readings - g.worn
      FROM (SELECT participant_device_id, local_date, sum(value_count)::int AS readings, sum(worn_count)::int AS worn
            FROM removed WHERE participant_device_id IS NOT NULL GROUP BY participant_device_id, local_date) g
      WHERE d.participant_device_id = g.participant_device_id AND d.local_date = g.local_date
      RETURNING d.participant_device_id)
    SELECT count(*) FROM counts$q$, part);
  DELETE FROM device_reading_days d WHERE d.local_date >= month AND d.local_date < (month + interval '1 month')::date
    AND d.readings <= 0;
  RETURN QUERY EXECUTE format(
    'SELECT team_id, metric_key, sum(value_count)::bigint, count(*)::bigint FROM %I GROUP BY team_id, metric_key ORDER BY team_id, metric_key',
    part);
  EXECUTE format('DROP TABLE %I', part);
  -- Days that also hold readings keep them; their newest may have been a dropped sample.
  UPDATE device_reading_days d SET (newest_at, newest_offset_minutes) = (
    SELECT * FROM device_reading_day_newest(pd.participant_id, d.participant_device_id, d.local_date))
  FROM participant_devices pd
  WHERE pd.id = d.participant_device_id
    AND d.local_date >= month AND d.local_date < (month + interval '1 month')::date;
END $$;

-- Moves one intraday metric's readings (row per reading) into day rows, in
-- the caller's transaction: readers go on meanwhile (MVCC), and a sync
-- writing meanwhile waits only for the rows it would update. Every reading
-- must lie on the metric's grid of its day (the sync stores Fitbit's
-- HH:mm:00 minutes); one that does not stops the move rather than being
-- lost. Answers the readings moved (each is then one sample of a day row).
CREATE FUNCTION intraday_move_readings(p_metric text, p_step integer) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  off_grid bigint;
  lo date;
  hi date;
  moved bigint;
  kept bigint;
BEGIN
  SELECT count(*), min(local_date), max(local_date) INTO off_grid, lo, hi FROM device_readings
  WHERE metric_key = p_metric
    AND (local_time IS NULL OR utc_offset_minutes IS NULL
         OR mod(extract(epoch FROM local_time)::numeric, p_step) <> 0);
  IF off_grid > 0 THEN
    RAISE EXCEPTION 'intraday move: % % readings are off the %-second grid (first day %)', off_grid, p_metric, p_step, lo;
  END IF;
  SELECT min(local_date), max(local_date) INTO lo, hi FROM device_readings WHERE metric_key = p_metric;
  IF lo IS NULL THEN
    RETURN 0;
  END IF;
  PERFORM intraday_ensure_partitions(lo, hi);

  WITH ins AS (
  INSERT INTO intraday_days (participant_id, team_id, metric_key, local_date, start_at, step_seconds,
    utc_offset_minutes, offset_shifts, samples, value_count, worn_count, newest_at, newest_offset_minutes,
    participant_device_id, provider, fetched_at, inserted_at)
  WITH r AS (
    SELECT r.*,
      first_value(r.measured_at - r.local_time::interval) OVER w AS start_at,
      first_value(r.utc_offset_minutes) OVER w AS first_offset,
      lag(r.utc_offset_minutes) OVER w AS prev_offset
    FROM device_readings r
    WHERE r.metric_key = p_metric
    WINDOW w AS (PARTITION BY r.participant_id, r.metric_key, r.local_date ORDER BY r.measured_at)
  ), i AS (
    SELECT r.*, extract(epoch FROM r.measured_at - r.start_at) / p_step AS ix FROM r
  ), day AS (
    SELECT participant_id, metric_key, local_date,
      min(team_id) AS team_id, min(start_at) AS start_at, min(first_offset) AS first_offset,
      max(ix)::int AS last_ix,
      bool_and(ix = trunc(ix)) AS on_grid,
      array_agg(ix::int ORDER BY ix) AS ixs, array_agg(value ORDER BY ix) AS vals,
      array_agg(ARRAY[ix::int, utc_offset_minutes::int] ORDER BY ix)
        FILTER (WHERE prev_offset IS NOT NULL AND prev_offset <> utc_offset_minutes) AS shifts,
      (array_agg(utc_offset_minutes ORDER BY ix DESC))[1] AS last_offset,
      max(measured_at) AS newest_at,
      count(value)::int AS value_count,
      (count(*) FILTER (WHERE value IS NOT NULL AND device_reading_worn(metric_key, value)))::int AS worn_count,
      (array_agg(participant_device_id ORDER BY ix DESC))[1] AS participant_device_id,
      (array_agg(provider ORDER BY ix DESC))[1] AS provider,
      max(fetched_at) AS fetched_at, min(inserted_at) AS inserted_at
    FROM i GROUP BY participant_id, metric_key, local_date
  )
  SELECT d.participant_id, d.team_id, d.metric_key, d.local_date, d.start_at, p_step, d.first_offset,
    -- [[index, offset], …] flattened to [index, offset, …].
    (SELECT array_agg(x ORDER BY o) FROM unnest(d.shifts) WITH ORDINALITY u(x, o)),
    (SELECT array_agg(v.value ORDER BY s.n)
       FROM generate_series(0, d.last_ix) s(n)
       LEFT JOIN unnest(d.ixs, d.vals) v(ix, value) ON v.ix = s.n),
    d.value_count, d.worn_count, d.newest_at, d.last_offset,
    d.participant_device_id, d.provider, d.fetched_at, d.inserted_at
  FROM day d
  WHERE CASE WHEN d.on_grid THEN true
             ELSE (SELECT intraday_refuse(format('a %s day (%s) is off its %s-second grid', p_metric, d.local_date, p_step))) END
  RETURNING value_count)
  SELECT coalesce(sum(value_count), 0) INTO kept FROM ins;

  WITH del AS (DELETE FROM device_readings WHERE metric_key = p_metric RETURNING value)
  SELECT count(value) INTO moved FROM del;
  IF kept <> moved THEN
    RAISE EXCEPTION 'intraday move: % readings of % moved into % samples', moved, p_metric, kept;
  END IF;
  RETURN moved;
END $$;

CREATE FUNCTION intraday_refuse(message text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'intraday move: %', message;
END $$;

-- The months ahead (the intraday-partitions job keeps three made), then the readings stored so far.
SELECT intraday_ensure_partitions(date_trunc('month', now())::date,
                                  (date_trunc('month', now()) + interval '2 months')::date);
SELECT intraday_move_readings('heart_rate_intraday', 60);
