/*
 * What other features may use of teams: the dashboard's team picker. The
 * /UserTeams page is reached through the page registry.
 */
export { TeamPicker } from './components/team-picker';
