/* What the overview sections use of the Omron pages. */
export { BloodPressureChart, WeightChart } from './omron-charts';
export { bloodPressureLines, weightLines } from './omron-series';
