/** Database info (Sys_Admin): the page is reached through the page registry only. */
export { DbInfoTable } from './components/db-info-table';
