-- Heart-rate variability through the night (issue #24 item 1): Fitbit's 5-minute HRV
-- samples of the main sleep ("HRV intraday"), a metric of its own beside the nightly
-- RMSSD. A night has about a hundred samples, each with its own instant and the
-- provider's detail (legacy: coverage, hf, lf; Google Health: SDNN), so they are readings
-- (device_readings), not day rows on a grid (decision 043).
INSERT INTO metric_catalog (metric_key, metric_name, units, device_type, category, description, default_retention_days)
VALUES ('hrv_intraday', 'Heart rate variability (5-minute)', 'ms', 'fitness_tracker', 'Heart',
        'RMSSD every 5 minutes through the main sleep', 30);
