/*
 * Provider simulators (Fitbit, Omron, Dexcom): OAuth 2.0 and data APIs that
 * behave like the real services. Built by the provider-simulators issue; the
 * package exists now so the workspace layout of design.md is in place.
 */
export const SIMULATED_PROVIDERS = ['fitbit', 'omron', 'dexcom'] as const;
