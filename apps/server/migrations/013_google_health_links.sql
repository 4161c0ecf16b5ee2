-- Fitbit through the Google Health API (issue #13). participant_devices.provider
-- already says which API a Fitbit link reads through ('fitbit' = the legacy
-- Fitbit Web API, 'google_health' = the Google Health API; one link per brand).
-- This adds what the Google back end needs beside it:
--  * legacy_user_id: the Google identity's legacyUserId, the participant's
--    legacy Fitbit user id, kept to match a Google consent to the same
--    person's legacy link (and to nothing else, as Google requires);
--  * an index to find a link by its Google healthUserId (provider_user_id),
--    the key of webhook notifications.
ALTER TABLE participant_devices ADD COLUMN legacy_user_id text;
COMMENT ON COLUMN participant_devices.provider IS
  'the API behind the link: fitbit (legacy Fitbit Web API), google_health (Google Health API), omron, dexcom';
CREATE INDEX participant_devices_provider_user_idx ON participant_devices (provider, provider_user_id)
  WHERE provider_user_id IS NOT NULL;
