-- Device links and readings carry their team, so every team-scoped data query
-- (device data, sync, retention, export) filters one table by team_id instead
-- of joining through participants. A composite foreign key to
-- participants (id, team_id) keeps the copy equal to the participant's team.

ALTER TABLE participants ADD CONSTRAINT participants_id_team_key UNIQUE (id, team_id);

ALTER TABLE participant_devices ADD COLUMN team_id integer;
UPDATE participant_devices d SET team_id = p.team_id FROM participants p WHERE p.id = d.participant_id;
ALTER TABLE participant_devices ALTER COLUMN team_id SET NOT NULL;
ALTER TABLE participant_devices
  ADD CONSTRAINT participant_devices_participant_team_fkey
  FOREIGN KEY (participant_id, team_id) REFERENCES participants (id, team_id) ON DELETE CASCADE;
CREATE INDEX participant_devices_team_idx ON participant_devices (team_id, provider, authorization_status);

ALTER TABLE device_readings ADD COLUMN team_id integer;
UPDATE device_readings r SET team_id = p.team_id FROM participants p WHERE p.id = r.participant_id;
ALTER TABLE device_readings ALTER COLUMN team_id SET NOT NULL;
ALTER TABLE device_readings
  ADD CONSTRAINT device_readings_participant_team_fkey
  FOREIGN KEY (participant_id, team_id) REFERENCES participants (id, team_id) ON DELETE CASCADE;
CREATE INDEX device_readings_team_metric_time_idx ON device_readings (team_id, metric_key, measured_at);
