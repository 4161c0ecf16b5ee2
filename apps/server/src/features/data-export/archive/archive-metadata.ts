/*
 * The archive's two files about the data (issue #12 item 3 and the formats
 * since): data_dictionary.csv — each exported metric described from the
 * catalog, then the study-health measures and the conventions, with the
 * FHIR coding or the Open mHealth schema of each metric for those formats —
 * and manifest.json — the request, the conventions of the format, the
 * files with their rows and hashes; a de-identified export's without its
 * real dates (decision 049).
 */
import { createHash } from 'node:crypto';
import { DATA_CONVENTIONS, DATA_CONVENTIONS_SOURCE, STUDY_HEALTH_DEFINITIONS } from '@trialwear/contract';
import { APP_VERSION } from '../../../version.js';
import { csvField } from './csv-text.js';
import { dictionaryCoding } from './fhir/codes.js';
import { OMH_SCHEMAS, omhSchemaOf } from './omh/data-points.js';
import type { OmhOmitted } from './omh/entries.js';
import { PARQUET_COLUMN_TYPES } from './parquet-entry.js';
import { DATA_COLUMNS, type ExportSnapshot } from './readings-stream-repo.js';
import type { ArchiveFile, ArchiveRequest } from './write-archive.js';

type Format = NonNullable<ArchiveRequest['format']>;

/** The job's parameters without the real dates (a de-identified export's manifest). */
function withoutDates(params: unknown): unknown {
  if (params === null || typeof params !== 'object') return params ?? null;
  const { startDate: _s, endDate: _e, ...rest } = params as Record<string, unknown>;
  return rest;
}

export const DICTIONARY_FILE = 'data_dictionary.csv';
export const MANIFEST_FILE = 'manifest.json';
export const DICTIONARY_COLUMNS = [
  'metric_key',
  'metric_name',
  'unit',
  'description',
  'source',
  'device_type',
] as const;

/** The FHIR export's dictionary columns, after the others: how each metric is coded. */
export const FHIR_DICTIONARY_COLUMNS = [
  'fhir_code_system',
  'fhir_code',
  'ucum_unit',
  'fhir_category',
] as const;

/**
 * The study-health measures (the Study health page and its compliance
 * report, decision 034), defined after the exported metrics: the same text
 * as the page's legend and the report's Definitions sheet.
 */
export const STUDY_HEALTH_DICTIONARY_SOURCE = 'trialwear_study_health';

/** Definitions of the portal's own as dictionary rows (an empty unit or device type is an empty cell). */
const definitionRows = (
  defs: ReadonlyArray<{ key: string; name: string; unit: string; description: string; deviceType: string }>,
  source: string,
) => defs.map((d) => [d.key, d.name, d.unit || null, d.description, source, d.deviceType || null]);
const STUDY_HEALTH_DICTIONARY = definitionRows(STUDY_HEALTH_DEFINITIONS, STUDY_HEALTH_DICTIONARY_SOURCE);
/** The rules every page and export follows (no data vs 0), last. */
const CONVENTIONS_DICTIONARY = definitionRows(DATA_CONVENTIONS, DATA_CONVENTIONS_SOURCE);

/** data_dictionary.csv of the export's metrics in its format. */
export function dictionaryFile(snapshot: ExportSnapshot, format: Format) {
  // FHIR: how each metric is coded (LOINC, else the portal's code system), its UCUM unit and category.
  const fhirColumns = (key: string | null) => {
    if (format === 'omh') {
      const schema = key === null ? undefined : omhSchemaOf(key);
      return [schema ? `omh:${schema}:${OMH_SCHEMAS[schema].version}` : null];
    }
    if (format !== 'fhir') return [];
    if (key === null) return [null, null, null, null];
    const c = dictionaryCoding(key);
    return [c.system, c.code, c.ucum || null, c.category];
  };
  const dictionaryRows = [
    ...snapshot.metrics.map((m) => [
      m.key,
      m.name,
      m.unit,
      m.description,
      m.source,
      m.deviceType,
      ...fhirColumns(m.key),
    ]),
    ...[...STUDY_HEALTH_DICTIONARY, ...CONVENTIONS_DICTIONARY].map((r) => [...r, ...fhirColumns(null)]),
  ];
  const dictionaryLines = [
    [
      ...DICTIONARY_COLUMNS,
      ...(format === 'fhir' ? FHIR_DICTIONARY_COLUMNS : []),
      ...(format === 'omh' ? ['omh_schema'] : []),
    ].join(','),
    ...dictionaryRows.map((r) => r.map(csvField).join(',')),
  ];
  const buffer = Buffer.from(`${dictionaryLines.join('\n')}\n`);
  return { buffer, rows: dictionaryRows.length, sha256: createHash('sha256').update(buffer).digest('hex') };
}

/** manifest.json, once every file's hash is known. */
export function manifestOf({
  req,
  snapshot,
  format,
  now,
  files,
  omh,
}: {
  req: ArchiveRequest;
  snapshot: ExportSnapshot;
  format: Format;
  now: Date;
  files: readonly ArchiveFile[];
  omh: OmhOmitted & { unsupported: readonly string[] };
}) {
  const deidentified = req.shiftDays !== undefined;
  const manifest = {
    product: 'TrialWear',
    product_version: APP_VERSION,
    generated_at: now.toISOString(),
    job_params: deidentified ? withoutDates(req.jobParams) : (req.jobParams ?? null),
    export: {
      format,
      // De-identified: that the dates are shifted, never by how much (nor the real range).
      ...(deidentified ? { dates_shifted: true } : {}),
      mode:
        format === 'parquet'
          ? 'one file per metric'
          : format === 'fhir'
            ? 'FHIR R4 Bulk Data NDJSON, one file per resource type'
            : format === 'omh'
              ? 'Open mHealth data points (NDJSON), one file per body schema'
              : req.mode,
      ...(deidentified ? {} : { start_date: req.startDate, end_date: req.endDate }),
      metrics: snapshot.metrics.map((m) => m.key),
      participants: snapshot.participants.map((p) => p.code),
    },
    ...(format === 'fhir' || format === 'omh' ? {} : { columns: DATA_COLUMNS }),
    conventions: {
      ...(deidentified
        ? {
            deidentified:
              "every date and instant of a participant (local_date, measured_at_utc and the dates inside value_json) is shifted by the same whole number of days, 0 to 364, which differs between participants and is not given; times of day, offsets, weekdays' order, intervals and values are kept; participants appear by code only",
          }
        : {}),
      order: 'participant_code, metric_key, measured_at_utc',
      dates:
        'local_date and local_time are the participant-local wall clock; the date range is of local dates, inclusive',
      utc_offset: 'offset from UTC in force at the reading, ±HH:MM; empty when the provider gave none',
      measured_at_utc: 'ISO 8601 instant in UTC (Z); fractional seconds only when stored',
      value: "the stored number in the provider's unit (see unit and data_dictionary.csv)",
      value_json: "the provider's structured detail of the reading as JSON text; empty when none",
      display_value:
        "the value as the pages show it where they show another unit than the provider's (distance in mi, weight in Lbs, rounded as the pages round them; data_dictionary.csv, display_units); empty for every other metric",
      rows:
        format === 'parquet'
          ? "row counts are the Parquet files' rows; sha256 is of the file as extracted"
          : 'row counts exclude the header row; sha256 is of the file as extracted',
      ...(format === 'fhir'
        ? {
            fhir: "FHIR R4: Patient (pseudonymous: the participant code as identifier), Device (one per linked device) and Observation (one per reading; blood pressure: one panel per systolic/diastolic pair); codes LOINC where the data dictionary gives one, else urn:trialwear:metric; values in UCUM units; a local day's value has the local date as effectiveDateTime, any other reading its local date and time with the UTC offset",
            rows: 'row counts are resources (lines); sha256 is of the file as extracted',
          }
        : {}),
      ...(format === 'omh'
        ? {
            omh: 'each line a data point { header, body }: header id and uuid (the same name-based UUID of the reading), schema_id, creation_date_time (this export), source_creation_date_time (the reading), acquisition_provenance (the provider), user_id (the participant code); bodies of the schema and version in the header and in data_dictionary.csv (omh_schema)',
            rows: 'row counts are data points (lines); sha256 is of the file as extracted',
            not_exported: {
              metrics_without_schema: omh.unsupported,
              readings_without_value: omh.noValue,
              blood_pressure_halves_without_the_other: omh.bloodPressureHalf,
            },
          }
        : {}),
      ...(format === 'parquet'
        ? {
            parquet:
              'one file per metric, the CSV columns in the same order with the same values, typed (parquet_types); a CSV empty field is null',
          }
        : {}),
    },
    ...(format === 'parquet' ? { parquet_types: PARQUET_COLUMN_TYPES } : {}),
    files: files.map((f) => ({ name: f.name, rows: f.rows, bytes: f.bytes, sha256: f.sha256 })),
  };
  return manifest;
}
