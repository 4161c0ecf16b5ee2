/*
 * @trialwear/zone: time-zone and calendar-date arithmetic for the portal,
 * its web app, its contract and the provider simulators alike. Dependency
 * free and arithmetic only (no schema, no rule of the portal), so the
 * simulators may use it and stay independent of the portal's contract.
 * Instants are epoch milliseconds (or Dates); zones are IANA names.
 */

export * from './dates.js';
export * from './local-time.js';
export * from './offset.js';
export * from './offset-text.js';
