-- The metric catalog (issue #11, admin §3 "Available metric"): what each
-- device type can measure, in the unit the provider delivers it (Fitbit
-- metric units, Omron kg/mmHg/bpm, Dexcom mg/dL); conversions happen only at
-- display and export. Keys are the names the sync and export use for the
-- reading's metric_key. Numbered 009: 008 is left to another change.
INSERT INTO metric_catalog (metric_key, metric_name, units, device_type, category, description, default_retention_days) VALUES
  -- Fitbit trackers (providers.md §1.7: activity time series, heart rate, sleep, SpO2, HRV, breathing, temperature, cardio fitness)
  ('steps',                   'Steps',                     'steps',        'fitness_tracker', 'Activity',    'Steps taken per day (and per minute intraday)', 30),
  ('distance',                'Distance',                  'km',           'fitness_tracker', 'Activity',    'Distance travelled per day', 30),
  ('floors',                  'Floors',                    'floors',       'fitness_tracker', 'Activity',    'Floors climbed per day', 30),
  ('calories',                'Calories burned',           'kcal',         'fitness_tracker', 'Activity',    'Total energy expenditure per day', 30),
  ('minutes_sedentary',       'Sedentary minutes',         'min',          'fitness_tracker', 'Activity',    'Minutes spent sedentary per day', 30),
  ('minutes_lightly_active',  'Lightly active minutes',    'min',          'fitness_tracker', 'Activity',    'Minutes of light activity per day', 30),
  ('minutes_fairly_active',   'Fairly active minutes',     'min',          'fitness_tracker', 'Activity',    'Minutes of moderate activity per day', 30),
  ('minutes_very_active',     'Very active minutes',       'min',          'fitness_tracker', 'Activity',    'Minutes of vigorous activity per day', 30),
  ('resting_heart_rate',      'Resting heart rate',        'bpm',          'fitness_tracker', 'Heart',       'Resting heart rate per day', 30),
  ('heart_rate_intraday',     'Intraday heart rate',       'bpm',          'fitness_tracker', 'Heart',       'Heart rate per minute through the day', 30),
  ('sleep_duration',          'Sleep duration',            'min',          'fitness_tracker', 'Sleep',       'Minutes asleep per main sleep', 30),
  ('sleep_stages',            'Sleep stages',              'min',          'fitness_tracker', 'Sleep',       'Minutes in deep, light, REM and wake stages', 30),
  ('spo2',                    'SpO2',                      '%',            'fitness_tracker', 'Respiratory', 'Average blood oxygen saturation during sleep', 30),
  ('hrv',                     'Heart rate variability',    'ms',           'fitness_tracker', 'Heart',       'Daily RMSSD during sleep', 30),
  ('breathing_rate',          'Breathing rate',            'breaths/min',  'fitness_tracker', 'Respiratory', 'Average breaths per minute during sleep', 30),
  ('skin_temperature',        'Skin temperature',          '°C',           'fitness_tracker', 'Temperature', 'Nightly skin temperature variation from the baseline', 30),
  ('cardio_score',            'Cardio score (VO2 max)',    'mL/kg/min',    'fitness_tracker', 'Fitness',     'Cardio fitness score, an estimate of VO2 max', 30),
  -- Scales (Fitbit Aria and Omron body-composition scales share the device type)
  ('weight',                  'Weight',                    'kg',           'scale',           'Body',        'Body weight per measurement', 30),
  ('bmi',                     'BMI',                       'kg/m²',        'scale',           'Body',        'Body mass index per measurement', 30),
  ('body_fat',                'Body fat',                  '%',            'scale',           'Body',        'Body fat percentage per measurement', 30),
  -- Omron blood-pressure monitors
  ('systolic',                'Systolic pressure',         'mmHg',         'blood_pressure',  'Blood pressure', 'Systolic blood pressure per measurement', 30),
  ('diastolic',               'Diastolic pressure',        'mmHg',         'blood_pressure',  'Blood pressure', 'Diastolic blood pressure per measurement', 30),
  ('pulse',                   'Pulse',                     'bpm',          'blood_pressure',  'Heart',       'Pulse measured with the blood pressure', 30),
  -- Dexcom CGM (providers.md §3: EGV records every 5 minutes, calibrations, events)
  ('egv',                     'Estimated glucose value',   'mg/dL',        'cgm',             'Glucose',     'Sensor glucose value every 5 minutes', 30),
  ('egv_trend',               'Glucose trend',             'mg/dL/min',    'cgm',             'Glucose',     'Trend arrow and rate of change of each value', 30),
  ('calibrations',            'Calibrations',              'mg/dL',        'cgm',             'Glucose',     'Finger-stick calibrations entered on the receiver', 30),
  ('events',                  'Events',                    NULL,           'cgm',             'Events',      'Carbs, insulin, exercise and health events entered by the participant', 30);
