/*
 * How each stored metric is coded in the FHIR R4 export (issue #25 item 1,
 * decision 046): the LOINC code where one means exactly what the metric
 * stores (the list and the FHIR vital-signs profile's codes), else
 * the portal's own code system with the metric key; the UCUM unit of the
 * value; the observation category; and whether the value is a local day's
 * (effectiveDateTime is then the participant-local date).
 * Blood pressure is one panel (85354-9) whose components are the systolic
 * and diastolic readings of the same instant.
 */

export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
export const CATEGORY_SYSTEM = 'http://terminology.hl7.org/CodeSystem/observation-category';
/** The portal's metric keys as a code system (a URN: no web page is claimed). */
export const METRIC_SYSTEM = 'urn:trialwear:metric';
/** Participant codes as identifiers. */
export const PARTICIPANT_CODE_SYSTEM = 'urn:trialwear:participant-code';

export type FhirCategory = 'activity' | 'vital-signs' | 'laboratory' | 'survey';
export const CATEGORY_DISPLAY: Record<FhirCategory, string> = {
  activity: 'Activity',
  'vital-signs': 'Vital Signs',
  laboratory: 'Laboratory',
  survey: 'Survey',
};

export interface FhirMetric {
  loinc?: { code: string; display: string };
  category: FhirCategory;
  /** The value's UCUM unit (code) and its human text; null: a value without a unit. */
  ucum: { code: string; unit: string } | null;
  /** A value of the participant's local day (activity totals, the nightly values). */
  daily: boolean;
}

const per = (code: string, unit: string) => ({ code, unit });
const activityDay = (code: string, unit: string): FhirMetric => ({
  category: 'activity',
  ucum: per(code, unit),
  daily: true,
});

export const BLOOD_PRESSURE_PANEL = {
  code: '85354-9',
  display: 'Blood pressure panel with all children optional',
};
export const BLOOD_PRESSURE_COMPONENTS = {
  systolic: { code: '8480-6', display: 'Systolic blood pressure' },
  diastolic: { code: '8462-4', display: 'Diastolic blood pressure' },
} as const;
export const MM_HG = per('mm[Hg]', 'mmHg');

export const FHIR_METRICS: Record<string, FhirMetric> = {
  steps: {
    loinc: { code: '41950-7', display: 'Number of steps in 24 hour Measured' },
    category: 'activity',
    ucum: per('/d', 'steps/day'),
    daily: true,
  },
  distance: activityDay('km', 'km'),
  floors: activityDay('/d', 'floors/day'),
  calories: activityDay('kcal', 'kcal'),
  minutes_sedentary: activityDay('min', 'min'),
  minutes_lightly_active: activityDay('min', 'min'),
  minutes_fairly_active: activityDay('min', 'min'),
  minutes_very_active: activityDay('min', 'min'),
  steps_intraday: { category: 'activity', ucum: per('/min', 'steps/min'), daily: false },
  resting_heart_rate: {
    loinc: { code: '40443-4', display: 'Heart rate --resting' },
    category: 'vital-signs',
    ucum: per('/min', 'beats/minute'),
    daily: true,
  },
  heart_rate_intraday: {
    loinc: { code: '8867-4', display: 'Heart rate' },
    category: 'vital-signs',
    ucum: per('/min', 'beats/minute'),
    daily: false,
  },
  heart_rate_1sec: {
    loinc: { code: '8867-4', display: 'Heart rate' },
    category: 'vital-signs',
    ucum: per('/min', 'beats/minute'),
    daily: false,
  },
  pulse: {
    loinc: { code: '8867-4', display: 'Heart rate' },
    category: 'vital-signs',
    ucum: per('/min', 'beats/minute'),
    daily: false,
  },
  sleep_duration: {
    loinc: { code: '93832-4', display: 'Sleep duration' },
    category: 'activity',
    ucum: per('min', 'min'),
    // The night's period when the provider gave it (resources.ts), else the night's date.
    daily: true,
  },
  sleep_stages: { category: 'activity', ucum: per('min', 'min'), daily: true },
  spo2: {
    loinc: { code: '59408-5', display: 'Oxygen saturation in Arterial blood by Pulse oximetry' },
    category: 'vital-signs',
    ucum: per('%', '%'),
    daily: true,
  },
  hrv: { category: 'vital-signs', ucum: per('ms', 'ms'), daily: true },
  hrv_intraday: { category: 'vital-signs', ucum: per('ms', 'ms'), daily: false },
  breathing_rate: {
    loinc: { code: '9279-1', display: 'Respiratory rate' },
    category: 'vital-signs',
    ucum: per('/min', 'breaths/minute'),
    daily: true,
  },
  skin_temperature: { category: 'vital-signs', ucum: per('Cel', '°C'), daily: true },
  cardio_score: { category: 'activity', ucum: per('mL/kg/min', 'mL/kg/min'), daily: true },
  weight: {
    loinc: { code: '29463-7', display: 'Body weight' },
    category: 'vital-signs',
    ucum: per('kg', 'kg'),
    daily: false,
  },
  bmi: {
    loinc: { code: '39156-5', display: 'Body mass index (BMI) [Ratio]' },
    category: 'vital-signs',
    ucum: per('kg/m2', 'kg/m2'),
    daily: false,
  },
  body_fat: { category: 'vital-signs', ucum: per('%', '%'), daily: false },
  egv: {
    loinc: { code: '99504-3', display: 'Glucose [Mass/volume] in Interstitial fluid' },
    category: 'laboratory',
    ucum: per('mg/dL', 'mg/dL'),
    daily: false,
  },
  egv_trend: { category: 'laboratory', ucum: per('mg/dL/min', 'mg/dL/min'), daily: false },
  calibrations: { category: 'laboratory', ucum: per('mg/dL', 'mg/dL'), daily: false },
  // A user's entry (carbs, insulin, exercise, health): its own unit is in the detail.
  events: { category: 'survey', ucum: null, daily: false },
};

/** A metric the catalog gains later, before it is coded here: the portal's code, no unit claimed. */
export const fhirMetric = (key: string): FhirMetric =>
  FHIR_METRICS[key] ?? { category: 'survey', ucum: null, daily: false };

/** The data dictionary's FHIR columns of a metric (the blood-pressure readings: the panel's components). */
export function dictionaryCoding(key: string): {
  system: string;
  code: string;
  ucum: string;
  category: string;
} {
  if (key === 'systolic' || key === 'diastolic')
    return {
      system: LOINC,
      code: `${BLOOD_PRESSURE_PANEL.code} component ${BLOOD_PRESSURE_COMPONENTS[key].code}`,
      ucum: MM_HG.code,
      category: 'vital-signs',
    };
  const m = fhirMetric(key);
  return {
    system: m.loinc ? LOINC : METRIC_SYSTEM,
    code: m.loinc?.code ?? key,
    ucum: m.ucum?.code ?? '',
    category: m.category,
  };
}
