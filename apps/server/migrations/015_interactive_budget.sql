-- The provider call budget split by who calls (issue #21 §3): interactive
-- reads (data pages, device lists) are counted apart from the background
-- sync and exports within the same clock hour, so that browsing can never
-- take the calls the sync and exports need (providers/call-budget.ts,
-- docs/decisions/001-provider-call-budget.md). budget_calls stays the total
-- of the hour; interactive_calls is the part of it the pages spent.
ALTER TABLE device_sync_state ADD COLUMN interactive_calls integer NOT NULL DEFAULT 0;

-- Until when the device's sync waits for a provider limit (our hourly budget
-- spent, or the provider's 429 and Retry-After): sync health shows "waiting
-- for the provider's limit until …" then, not a sync error. Cleared by the
-- next attempt that is not stopped by a limit.
ALTER TABLE device_sync_state ADD COLUMN limited_until timestamptz;
