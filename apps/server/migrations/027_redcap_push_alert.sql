-- Study health's redcapPush rule (issue #25 item 3, decision 048): an alert
-- per coded participant of a trial whose newest finished REDCap push failed,
-- always on like linkError. The rule key joins 017's CHECK list.
ALTER TABLE health_alerts DROP CONSTRAINT health_alerts_rule_key_check;
ALTER TABLE health_alerts ADD CONSTRAINT health_alerts_rule_key_check CHECK (rule_key IN
  ('lowWear', 'noSync', 'lowBattery', 'linkError', 'lowCgmActive', 'noBpReading', 'redcapPush'));
