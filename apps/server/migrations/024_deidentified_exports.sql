-- De-identified exports (issue #25 item 5, decision 049): per trial, whether exports with the
-- real dates are allowed at all (an Admin decides; existing trials keep allowing them), and the
-- trial's secret from which each participant's date shift is derived, sealed like provider
-- tokens (encryption.ts; re-sealed by rotate-encryption-key). Made on the trial's first
-- de-identified export.
ALTER TABLE trials
  ADD COLUMN allow_identified_exports boolean NOT NULL DEFAULT true,
  ADD COLUMN date_shift_key_enc text;
