/*
 * What other features may use of device links: the Manage Participant panel
 * and the trial page's device-status re-check. Everything else in this
 * folder is the feature's own.
 */

/** A participant's link status per provider (the data pages show a section per linked provider). */
export { useDevices, useLinkStatus } from './api/device-links-api';
export { DevicesManagement } from './components/devices-management';
export { useDeviceStatusRefresh } from './use-device-status-refresh';
