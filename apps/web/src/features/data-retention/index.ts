/** Data Storage & Retention Settings: the page comes through the page registry; the team's retention for other pages. */
export { useTeamRetention } from './api/data-retention-api';
