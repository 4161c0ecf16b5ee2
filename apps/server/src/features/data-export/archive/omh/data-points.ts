/*
 * The Open mHealth data points of the export (issue #25 item 2, decision
 * 047): `{ header, body }` with the header of OMH header-1.2 (`id`) and IEEE
 * 1752.1 (`uuid`, the same value), the schema id, the export's creation
 * time, the reading's own time as its source creation time and the
 * provider as acquisition provenance; the participant code as user_id.
 * Bodies: step-count 3.0, heart-rate 2.0, blood-pressure 3.1, body-weight
 * 2.0, blood-glucose 3.0, total-sleep-time 1.0 (the versions whose
 * sub-schemas are all published in openmhealth/schemas).
 */
import { createHash } from 'node:crypto';
import { type BloodPressurePair, type ExportReading, sleepPeriod } from '../export-readings.js';

export const OMH_SCHEMAS = {
  'step-count': { version: '3.0', metrics: ['steps', 'steps_intraday'] },
  'heart-rate': {
    version: '2.0',
    metrics: ['heart_rate_1sec', 'heart_rate_intraday', 'pulse', 'resting_heart_rate'],
  },
  'blood-pressure': { version: '3.1', metrics: ['diastolic', 'systolic'] },
  'body-weight': { version: '2.0', metrics: ['weight'] },
  'blood-glucose': { version: '3.0', metrics: ['calibrations', 'egv'] },
  'total-sleep-time': { version: '1.0', metrics: ['sleep_duration'] },
} as const;
export type OmhSchemaName = keyof typeof OMH_SCHEMAS;

/** The schema a metric is written with; undefined: no Open mHealth schema holds it. */
export function omhSchemaOf(metric: string): OmhSchemaName | undefined {
  return (Object.keys(OMH_SCHEMAS) as OmhSchemaName[]).find((s) =>
    (OMH_SCHEMAS[s].metrics as readonly string[]).includes(metric),
  );
}

const SOURCE_NAME: Record<string, string> = {
  fitbit: 'Fitbit',
  google_health: 'Fitbit (Google Health API)',
  omron: 'Omron',
  dexcom: 'Dexcom',
};

export interface OmhDataPoint {
  header: Record<string, unknown>;
  body: Record<string, unknown>;
}

/** A name-based UUID (RFC 4122 version 5 layout) of the reading: the same reading, the same id, in every export. */
function readingUuid(r: ExportReading, schema: string): string {
  const h = createHash('sha1')
    .update(`trialwear:${schema}:${r.participantId}:${r.metric}:${r.instantUs}`)
    .digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** The reading's time as RFC 3339: local date and time with its offset, else the UTC instant. */
export function dateTimeOf(r: ExportReading): string {
  if (r.localTime !== null && r.offset !== null) return `${r.localDate}T${r.localTime}${r.offset}`;
  const us = BigInt(r.instantUs);
  const iso = new Date(Number(us / 1000n)).toISOString().slice(0, 19);
  const fraction = us % 1_000_000n;
  return `${iso}${fraction === 0n ? '' : `.${String(fraction).padStart(6, '0').replace(/0+$/, '')}`}Z`;
}

/** A local day as a time interval: its midnight (with the offset then) and one day. */
const dayInterval = (r: ExportReading) => ({
  time_interval: {
    start_date_time: `${r.localDate}T00:00:00${r.offset ?? 'Z'}`,
    duration: { value: 1, unit: 'd' },
  },
});

function header(r: ExportReading, schema: OmhSchemaName, participantCode: string, createdAt: string) {
  const id = readingUuid(r, schema);
  const measured = dateTimeOf(r);
  return {
    id,
    uuid: id,
    schema_id: { namespace: 'omh', name: schema, version: OMH_SCHEMAS[schema].version },
    creation_date_time: createdAt,
    source_creation_date_time: measured,
    acquisition_provenance: {
      source_name: SOURCE_NAME[r.provider ?? ''] ?? r.provider ?? 'unknown',
      source_creation_date_time: measured,
      // A calibration is a fingerstick value the wearer enters in the Dexcom app.
      modality: r.metric === 'calibrations' ? 'self-reported' : 'sensed',
    },
    user_id: participantCode,
  };
}

/** The night as a time interval (the provider's start and end), else its start and the minutes asleep. */
function sleepInterval(r: ExportReading) {
  const night = sleepPeriod(r);
  return night
    ? { time_interval: { start_date_time: night.start, end_date_time: night.end } }
    : { time_interval: { start_date_time: dateTimeOf(r), duration: { value: r.value, unit: 'min' } } };
}

/** The data point of one reading (not blood pressure); null when it has no value to write. */
export function dataPointOf(
  r: ExportReading,
  participantCode: string,
  createdAt: string,
): OmhDataPoint | null {
  const schema = omhSchemaOf(r.metric);
  if (!schema || schema === 'blood-pressure' || r.value === null) return null;
  const at = { date_time: dateTimeOf(r) };
  let body: Record<string, unknown>;
  switch (schema) {
    case 'step-count':
      body = {
        step_count: { value: r.value, unit: 'steps' },
        effective_time_frame:
          r.metric === 'steps'
            ? dayInterval(r)
            : { time_interval: { start_date_time: dateTimeOf(r), duration: { value: 1, unit: 'min' } } },
      };
      break;
    case 'heart-rate':
      body =
        r.metric === 'resting_heart_rate'
          ? {
              heart_rate: { value: r.value, unit: 'beats/min' },
              effective_time_frame: dayInterval(r),
              temporal_relationship_to_physical_activity: 'at rest',
            }
          : { heart_rate: { value: r.value, unit: 'beats/min' }, effective_time_frame: at };
      break;
    case 'body-weight':
      body = { body_weight: { value: r.value, unit: 'kg' }, effective_time_frame: at };
      break;
    case 'blood-glucose':
      body = {
        blood_glucose: { value: r.value, unit: 'mg/dL' },
        specimen_source: r.metric === 'egv' ? 'interstitial fluid' : 'capillary blood',
        effective_time_frame: at,
      };
      break;
    case 'total-sleep-time':
      body = { total_sleep_time: { value: r.value, unit: 'min' }, effective_time_frame: sleepInterval(r) };
      break;
  }
  return { header: header(r, schema, participantCode, createdAt), body };
}

/** One blood-pressure measurement; null when a half or a value is missing (the schema needs both). */
export function bloodPressurePointOf(
  pair: BloodPressurePair,
  participantCode: string,
  createdAt: string,
): OmhDataPoint | null {
  const { systolic, diastolic } = pair;
  if (!systolic || !diastolic || systolic.value === null || diastolic.value === null) return null;
  return {
    header: header(systolic, 'blood-pressure', participantCode, createdAt),
    body: {
      systolic_blood_pressure: { value: systolic.value, unit: 'mmHg' },
      diastolic_blood_pressure: { value: diastolic.value, unit: 'mmHg' },
      effective_time_frame: { date_time: dateTimeOf(systolic) },
    },
  };
}
