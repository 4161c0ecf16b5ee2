/** Device metrics manager (Sys_Admin): the page comes through the page registry only. */
export { MetricPicker } from './components/metric-picker';
