-- Reference data every install needs: the global device catalog (spec core §3
-- names Fitbit Smartwatches & Trackers, Fitbit Sense and Omron Scale).
INSERT INTO global_device_catalog (manufacturer, device_type, device_name, context, description) VALUES
  ('Fitbit', 'fitness_tracker', 'Fitbit Smartwatches & Trackers', 'wearable', 'Any Fitbit tracker or smartwatch: steps, heart rate, sleep, activity'),
  ('Fitbit', 'fitness_tracker', 'Fitbit Sense', 'wearable', 'Fitbit Sense smartwatch: adds SpO2 and skin temperature'),
  ('Fitbit', 'scale', 'Fitbit Aria Scale', 'home', 'Fitbit Aria Wi-Fi scale: weight and body fat'),
  ('Omron', 'blood_pressure', 'Omron Blood Pressure Monitor', 'home', 'Omron connected blood-pressure monitor: systolic, diastolic, pulse'),
  ('Omron', 'scale', 'Omron Scale', 'home', 'Omron connected body-composition scale: weight'),
  ('Dexcom', 'cgm', 'Dexcom G7 CGM', 'wearable', 'Dexcom continuous glucose monitor: a glucose value every 5 minutes');
