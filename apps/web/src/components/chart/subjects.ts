/*
 * The one table of chart subjects (core §9: "colours and chart types are set
 * per subject"): every page draws a subject with the same colour, chart kind
 * and unit. Units are the ones SHOWN (after the page's display conversion,
 * e.g. weight in Lbs, distance in miles), not the provider's.
 */
export type ChartKind = 'bars' | 'line' | 'step';

export interface ChartSubject {
  label: string;
  /** Unit shown on the axis and in tooltips. */
  unit: string;
  colour: string;
  kind: ChartKind;
}

export const CHART_SUBJECTS = {
  steps: { label: 'Steps', unit: 'steps', colour: '#1c7ed6', kind: 'bars' },
  distance: { label: 'Distance', unit: 'mi', colour: '#0ca678', kind: 'bars' },
  floors: { label: 'Floors', unit: 'floors', colour: '#f08c00', kind: 'bars' },
  activeMinutes: { label: 'Active minutes', unit: 'min', colour: '#e8590c', kind: 'bars' },
  sleepDuration: { label: 'Sleep duration', unit: 'min', colour: '#7048e8', kind: 'bars' },
  restingHeartRate: { label: 'Resting heart rate', unit: 'bpm', colour: '#e03131', kind: 'line' },
  heartRateIntraday: { label: 'Heart rate', unit: 'bpm', colour: '#c2255c', kind: 'line' },
  stepsIntraday: { label: 'Steps', unit: 'steps', colour: '#1c7ed6', kind: 'bars' },
  weight: { label: 'Weight', unit: 'Lbs', colour: '#5f3dc4', kind: 'line' },
  caloriesIn: { label: 'Calories in', unit: 'kcal', colour: '#d9480f', kind: 'bars' },
  water: { label: 'Water', unit: 'fl oz', colour: '#1098ad', kind: 'bars' },
  spo2: { label: 'SpO2', unit: '%', colour: '#3b5bdb', kind: 'line' },
  vo2Max: { label: 'Cardio score (VO2 max)', unit: 'mL/kg/min', colour: '#2f9e44', kind: 'line' },
  systolic: { label: 'Systolic', unit: 'mmHg', colour: '#c92a2a', kind: 'line' },
  diastolic: { label: 'Diastolic', unit: 'mmHg', colour: '#1971c2', kind: 'line' },
  pulse: { label: 'Pulse', unit: 'bpm', colour: '#868e96', kind: 'line' },
  glucose: { label: 'Glucose', unit: 'mg/dL', colour: '#2b8a3e', kind: 'step' },
} as const satisfies Record<string, ChartSubject>;

export type ChartSubjectKey = keyof typeof CHART_SUBJECTS;

/**
 * Distinct colours for charts whose series are not subjects but people
 * (several participants on one metric): index i gets PALETTE[i % length].
 */
export const SERIES_PALETTE = [
  '#1c7ed6',
  '#e03131',
  '#2f9e44',
  '#f08c00',
  '#7048e8',
  '#0ca678',
  '#c2255c',
  '#5c940d',
  '#1098ad',
  '#862e9c',
] as const;
