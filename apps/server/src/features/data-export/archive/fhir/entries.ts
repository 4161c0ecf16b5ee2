/*
 * The FHIR export's NDJSON files (issue #25 item 1, decision 046), as the
 * FHIR Bulk Data format has them: one resource type per file, one resource
 * per line. Patient.ndjson and Device.ndjson are small (one line per
 * participant and per link); Observation.ndjson streams like the CSV
 * (ndjson-entry.ts): an Observation per reading, a blood-pressure panel per
 * systolic/diastolic pair of one instant, each checked (validate.ts).
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Resource } from '@medplum/fhirtypes';
import type { EntryResult } from '../entry-result.js';
import { BloodPressurePairs, isBloodPressure } from '../export-readings.js';
import { ndjsonEntry } from '../ndjson-entry.js';
import type { ExportSnapshot } from '../readings-stream-repo.js';
import { bloodPressureOf, deviceResource, observationOf, patientResource } from './resources.js';
import { FhirShapeCheck, validateFhir } from './validate.js';

export const FHIR_FILES = {
  patients: 'Patient.ndjson',
  devices: 'Device.ndjson',
  observations: 'Observation.ndjson',
} as const;

/** A small NDJSON file, every resource validated in full. */
export function ndjsonBuffer(resources: Resource[]): { buffer: Buffer; rows: number; sha256: string } {
  for (const r of resources) validateFhir(r);
  const buffer = Buffer.from(resources.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return { buffer, rows: resources.length, sha256: createHash('sha256').update(buffer).digest('hex') };
}

export const patientsFile = (snapshot: ExportSnapshot) =>
  ndjsonBuffer(snapshot.participants.map(patientResource));

/** The links of the exported participants (every one, whether or not it stored a reading in range). */
export const devicesFile = (snapshot: ExportSnapshot) =>
  ndjsonBuffer(
    snapshot.devices
      .filter((d) => snapshot.participants.some((p) => p.id === d.participantId))
      .map(deviceResource),
  );

/** Observation.ndjson: every participant's readings of the export's metrics, in export order. */
export function observationsEntry(
  snapshot: ExportSnapshot,
  onRows: (n: number) => void,
): { stream: Readable; result: Promise<EntryResult> } {
  const check = new FhirShapeCheck();
  return ndjsonEntry(
    snapshot,
    snapshot.metrics,
    () => {
      const pairs = new BloodPressurePairs();
      return {
        of: (r) => {
          if (!isBloodPressure(r.metric)) return [observationOf(r)];
          const pair = pairs.add(r);
          return pair ? [bloodPressureOf(pair.systolic, pair.diastolic)] : [];
        },
        rest: () => pairs.rest().map((p) => bloodPressureOf(p.systolic, p.diastolic)),
      };
    },
    (d) => check.check(d as Resource),
    onRows,
  );
}
