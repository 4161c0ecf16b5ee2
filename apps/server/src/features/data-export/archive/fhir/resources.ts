/*
 * The FHIR R4 resources of the export (issue #25 item 1, decision 046), one
 * pure builder per resource: a pseudonymous Patient (the participant code as
 * identifier, nothing else about the person), a Device per linked device,
 * and an Observation per stored reading (a blood-pressure panel per
 * systolic/diastolic pair of one instant). Types: @medplum/fhirtypes.
 */
import type { Device, Observation, ObservationComponent, Patient, Quantity } from '@medplum/fhirtypes';
import { type ExportReading, sleepPeriod } from '../export-readings.js';
import {
  BLOOD_PRESSURE_COMPONENTS,
  BLOOD_PRESSURE_PANEL,
  CATEGORY_DISPLAY,
  CATEGORY_SYSTEM,
  type FhirCategory,
  fhirMetric,
  LOINC,
  METRIC_SYSTEM,
  MM_HG,
  PARTICIPANT_CODE_SYSTEM,
  UCUM,
} from './codes.js';

export type { ExportReading } from '../export-readings.js';

export interface ExportDevice {
  id: number;
  participantId: number;
  provider: string;
  name: string | null;
}

const MANUFACTURER: Record<string, string> = {
  fitbit: 'Fitbit',
  google_health: 'Fitbit',
  omron: 'Omron',
  dexcom: 'Dexcom',
};

export const patientId = (participantId: number) => `participant-${participantId}`;
export const deviceId = (id: number) => `device-${id}`;

export function patientResource(p: { id: number; code: string }): Patient {
  return {
    resourceType: 'Patient',
    id: patientId(p.id),
    identifier: [{ system: PARTICIPANT_CODE_SYSTEM, value: p.code }],
  };
}

export function deviceResource(d: ExportDevice): Device {
  return {
    resourceType: 'Device',
    id: deviceId(d.id),
    ...(MANUFACTURER[d.provider] ? { manufacturer: MANUFACTURER[d.provider] } : {}),
    ...(d.name ? { deviceName: [{ name: d.name, type: 'model-name' }] } : {}),
    patient: { reference: `Patient/${patientId(d.participantId)}` },
  };
}

const category = (c: FhirCategory) => [
  { coding: [{ system: CATEGORY_SYSTEM, code: c, display: CATEGORY_DISPLAY[c] }] },
];

/**
 * The reading's time: a night's its period (the provider's sleep start and end), a local day's value
 * that date; else the wall clock with its offset (or the UTC instant).
 */
function effective(
  r: ExportReading,
  daily: boolean,
): Pick<Observation, 'effectiveDateTime' | 'effectivePeriod'> {
  const night = r.metric.startsWith('sleep_') ? sleepPeriod(r) : null;
  if (night) return { effectivePeriod: night };
  if (daily) return { effectiveDateTime: r.localDate };
  if (r.localTime !== null && r.offset !== null)
    return { effectiveDateTime: `${r.localDate}T${r.localTime}${r.offset}` };
  const us = BigInt(r.instantUs);
  const ms = Number(us / 1000n);
  const fraction = us % 1_000_000n;
  const iso = new Date(ms).toISOString().slice(0, 19);
  return {
    effectiveDateTime: `${iso}${fraction === 0n ? '' : `.${String(fraction).padStart(6, '0').replace(/0+$/, '')}`}Z`,
  };
}

const ABSENT = {
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/data-absent-reason', code: 'unknown' }],
};

const quantity = (value: number, ucum: { code: string; unit: string } | null): Quantity =>
  ucum ? { value, unit: ucum.unit, system: UCUM, code: ucum.code } : { value };

const common = (r: ExportReading, idStem: string) => ({
  resourceType: 'Observation' as const,
  // The primary key (participant, metric, instant) as a FHIR id: [A-Za-z0-9-.], at most 64.
  id: `${idStem}-${r.participantId}-${r.instantUs}`,
  status: 'final' as const,
  subject: { reference: `Patient/${patientId(r.participantId)}` },
});

/** Sleep stage minutes as components (the provider's detail: deep, light, REM, wake). */
function sleepStageComponents(json: string | null): ObservationComponent[] {
  if (!json) return [];
  let detail: Record<string, unknown>;
  try {
    detail = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return [];
  }
  return (['deep', 'light', 'rem', 'wake'] as const).flatMap((stage) => {
    const v = detail[stage];
    return typeof v === 'number'
      ? [
          {
            code: {
              coding: [{ system: METRIC_SYSTEM, code: `sleep_stages.${stage}` }],
              text: `${stage} sleep`,
            },
            valueQuantity: quantity(v, { code: 'min', unit: 'min' }),
          },
        ]
      : [];
  });
}

export function observationOf(r: ExportReading): Observation {
  const m = fhirMetric(r.metric);
  const components = r.metric === 'sleep_stages' ? sleepStageComponents(r.valueJson) : [];
  return {
    ...common(r, r.metric.replaceAll('_', '-')),
    category: category(m.category),
    code: {
      coding: [
        ...(m.loinc ? [{ system: LOINC, code: m.loinc.code, display: m.loinc.display }] : []),
        { system: METRIC_SYSTEM, code: r.metric, display: r.metricName },
      ],
      text: r.metricName,
    },
    ...effective(r, m.daily),
    ...(r.value === null ? { dataAbsentReason: ABSENT } : { valueQuantity: quantity(r.value, m.ucum) }),
    ...(r.deviceId === null ? {} : { device: { reference: `Device/${deviceId(r.deviceId)}` } }),
    ...(components.length ? { component: components } : {}),
  };
}

/** One blood-pressure measurement: the panel, its systolic and diastolic readings as components. */
export function bloodPressureOf(
  systolic: ExportReading | null,
  diastolic: ExportReading | null,
): Observation {
  const r = (systolic ?? diastolic)!;
  const component = (
    side: 'systolic' | 'diastolic',
    reading: ExportReading | null,
  ): ObservationComponent => ({
    code: { coding: [{ system: LOINC, ...BLOOD_PRESSURE_COMPONENTS[side] }] },
    ...(reading?.value === null || reading === null
      ? { dataAbsentReason: ABSENT }
      : { valueQuantity: quantity(reading.value, MM_HG) }),
  });
  return {
    ...common(r, 'blood-pressure'),
    category: category('vital-signs'),
    code: { coding: [{ system: LOINC, ...BLOOD_PRESSURE_PANEL }], text: 'Blood pressure' },
    ...effective(r, false),
    ...(r.deviceId === null ? {} : { device: { reference: `Device/${deviceId(r.deviceId)}` } }),
    component: [component('systolic', systolic), component('diastolic', diastolic)],
  };
}
