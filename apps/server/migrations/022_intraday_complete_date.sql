-- Intraday days read before the tracker had uploaded them whole (issue #24, decision 039): per
-- participant device and intraday metric, the last local date up to which every day was read
-- after the tracker's upload covered it. Once the tracker uploads again, the sync re-reads the
-- days after it, so a day first read partly (the tracker away from the phone) is stored whole.
ALTER TABLE device_sync_cursors ADD COLUMN complete_date date;
