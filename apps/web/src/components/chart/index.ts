/*
 * The shared chart (issue #10 item 10): every data page draws through
 * TimeChart with a subject from CHART_SUBJECTS; see time-chart.tsx for the props.
 */
export type { ChartAxis, ChartBand, ChartSeries } from './chart-options';
export { formatValue } from './chart-options';
export { formatInstant, localDaysToUnix, localTimesToUnix, localToUnix } from './local-time';
export { seriesFor } from './series-for';
export { CHART_SUBJECTS, type ChartKind, type ChartSubjectKey, SERIES_PALETTE } from './subjects';
export { TimeChart, type TimeChartProps } from './time-chart';
