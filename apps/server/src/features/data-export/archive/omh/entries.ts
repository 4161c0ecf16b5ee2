/*
 * The Open mHealth export's files (issue #25 item 2, decision 047): one
 * NDJSON file of data points per body schema (`step-count.ndjson`, …),
 * streamed like the CSV (ndjson-entry.ts). A reading without a value, or a
 * blood-pressure half without its other half, has no data point (the
 * schemas need the value, and both pressures): each is counted, and the
 * manifest says how many were left out and why; metrics no Open mHealth
 * schema holds are named there too.
 */
import type { Readable } from 'node:stream';
import type { EntryResult } from '../entry-result.js';
import { type BloodPressurePair, BloodPressurePairs, isBloodPressure } from '../export-readings.js';
import { ndjsonEntry } from '../ndjson-entry.js';
import type { ExportMetric, ExportSnapshot } from '../readings-stream-repo.js';
import {
  bloodPressurePointOf,
  dataPointOf,
  OMH_SCHEMAS,
  type OmhSchemaName,
  omhSchemaOf,
} from './data-points.js';

export interface OmhFile {
  name: string;
  schema: OmhSchemaName;
  metrics: ExportMetric[];
}

/** The files of the export's metrics (in schema order), and the metrics no schema holds. */
export function omhFiles(snapshot: ExportSnapshot): { files: OmhFile[]; unsupported: string[] } {
  const files = (Object.keys(OMH_SCHEMAS) as OmhSchemaName[]).flatMap((schema) => {
    const metrics = snapshot.metrics.filter((m) => omhSchemaOf(m.key) === schema);
    return metrics.length ? [{ name: `${schema}.ndjson`, schema, metrics }] : [];
  });
  return { files, unsupported: snapshot.metrics.filter((m) => !omhSchemaOf(m.key)).map((m) => m.key) };
}

/** Readings left out of a file, by reason. */
export interface OmhOmitted {
  noValue: number;
  bloodPressureHalf: number;
}

export function omhEntry(
  snapshot: ExportSnapshot,
  file: OmhFile,
  createdAt: string,
  omitted: OmhOmitted,
  check: (point: object) => void,
  onRows: (n: number) => void,
): { stream: Readable; result: Promise<EntryResult> } {
  return ndjsonEntry(
    snapshot,
    file.metrics,
    (participant) => {
      const pairs = new BloodPressurePairs();
      const pairPoint = (pair: BloodPressurePair | null) => {
        if (!pair) return [];
        const p = bloodPressurePointOf(pair, participant.code, createdAt);
        if (!p) omitted.noValue += 1;
        return p ? [p] : [];
      };
      return {
        of: (r) => {
          if (isBloodPressure(r.metric)) return pairPoint(pairs.add(r));
          const p = dataPointOf(r, participant.code, createdAt);
          if (!p) omitted.noValue += 1;
          return p ? [p] : [];
        },
        rest: () => {
          const halves = pairs.rest();
          omitted.bloodPressureHalf += halves.length;
          return [];
        },
      };
    },
    check,
    onRows,
  );
}
