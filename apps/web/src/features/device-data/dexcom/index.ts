/* What the overview sections use of the Dexcom page. */
export { DEFAULT_GLUCOSE_DAYS, egvReadings, glucoseWindow } from './glucose';
export { GlucoseSummaryCard } from './glucose-summary-card';
