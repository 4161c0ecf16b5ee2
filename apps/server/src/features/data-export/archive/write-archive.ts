/*
 * The export archive (issue #12 item 3): data CSVs, data_dictionary.csv and
 * manifest.json in one ZIP, streamed end to end:
 *
 *   COPY … TO STDOUT (binary) → CSV lines (binary-copy-csv.ts) → SHA-256 and row count
 *   → yazl (deflate, CRC-32; ZIP64 as soon as an entry or offset needs it)
 *   → `out` (the export storage's writer)
 *
 * With `format: 'parquet'` (issue #24, decision 042) the data files are one
 * Parquet file per metric instead (parquet-entry.ts), stored in the ZIP
 * without deflate (their pages are compressed already); the dictionary and
 * the manifest are the same. With `format: 'fhir'` (issue #25, decision 046)
 * they are FHIR R4 NDJSON files (fhir/entries.ts), and the dictionary says
 * how each metric is coded; with `format: 'omh'` (decision 047) Open mHealth
 * data points, one NDJSON file per body schema (omh/entries.ts).
 *
 * The dictionary and the manifest are archive-metadata.ts's.
 *
 * Nothing holds more than a stream buffer: each stage is a Node stream and
 * pipe/pipeline backpressure reaches back to the socket of the COPY, so a slow
 * writer slows PostgreSQL down instead of filling memory. The manifest is the
 * last entry, written once every data file's hash is known.
 *
 * CSV conventions (documented for the statisticians in the manifest too):
 * - one row per stored reading; the header's first columns are exactly the
 *   issue's; `value` is the stored number in the provider's unit (shortest
 *   text that reads back the same double); `value_json` is the provider's
 *   structured detail as compact JSON text (sleep stages, the Dexcom trend
 *   arrow, the sleep period's times), empty when none; `display_value` and
 *   `display_unit`, last, the figure the pages show where they show another
 *   unit (miles, Lbs: decision 044), empty for every other metric;
 * - local_date/local_time are the participant's wall clock, utc_offset the
 *   offset in force then (±HH:MM), measured_at_utc the instant in ISO 8601
 *   with Z (fractional seconds only when stored);
 * - participants appear by participant code only (`#<id>` when a participant
 *   has no code, as the portal shows it); no email, no notes.
 *
 * Abort: the signal stops the COPY (its connection is destroyed), the ZIP
 * and `out` at once; the caller then aborts its storage writer.
 */
import { createHash } from 'node:crypto';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { Db } from '../../../db/database.js';
import { DICTIONARY_FILE, dictionaryFile, MANIFEST_FILE, manifestOf } from './archive-metadata.js';
import { BinaryCopyCsv } from './binary-copy-csv.js';
import { type EntryResult, entryResult } from './entry-result.js';
import { devicesFile, FHIR_FILES, observationsEntry, patientsFile } from './fhir/entries.js';
import { useNativeCrc32 } from './native-crc32.js';
import { type OmhOmitted, omhEntry, omhFiles } from './omh/entries.js';
import { parquetEntry } from './parquet-entry.js';
import {
  DATA_COLUMNS,
  type ExportMetric,
  type ExportParticipant,
  type ExportSnapshot,
  openExportSnapshot,
} from './readings-stream-repo.js';

export interface ArchiveRequest {
  teamId: number;
  /** Already authorized, of teamId. */
  participantIds: number[];
  metricKeys: string[];
  /** Participant-local dates, inclusive, YYYY-MM-DD. */
  startDate: string;
  endDate: string;
  mode: 'single-tab' | 'separate-tabs';
  /**
   * The data files: CSV (default; by `mode`), Parquet (one file per metric whatever the mode), or
   * FHIR R4 (NDJSON, one file per resource type: fhir/entries.ts), or Open mHealth (NDJSON data
   * points, one file per body schema: omh/entries.ts).
   */
  format?: 'csv' | 'parquet' | 'fhir' | 'omh';
  /** Echoed into manifest.json (without its dates when de-identified). */
  jobParams: unknown;
  /** A de-identified export: the days each participant's dates and instants move by (decision 049). */
  shiftDays?: ReadonlyMap<number, number>;
}

export interface ArchiveFile {
  name: string;
  rows: number;
  /** SHA-256 (hex) of the file as extracted. */
  sha256: string;
  /** Uncompressed size in bytes. */
  bytes: number;
  kind: 'data' | 'dictionary';
}

export interface ArchiveResult {
  /** Bytes of the ZIP written to `out`. */
  bytes: number;
  /** The data files, then data_dictionary.csv (the manifest lists the same). */
  files: ArchiveFile[];
}

export interface ArchiveOptions {
  signal: AbortSignal;
  /**
   * Rows handed on so far: at the start (0), as each chunk of rows is handed
   * to the ZIP, and once at the end with rowsTotal = rowsWritten. Not
   * throttled: a plain call per chunk, so the caller, which throttles its own
   * writes (jobs/data-export/progress-throttle.ts), always holds the latest figure.
   */
  onProgress?: (p: { rowsWritten: number; rowsTotal: number }) => void;
  /** 'auto' (default): ZIP64 records only where sizes or offsets need them; 'always': on every entry and the end record. */
  zip64?: 'auto' | 'always';
  /** Rows per Parquet row group (tests: small, so that groups span participants); default GROUP_ROWS. */
  parquetGroupRows?: number;
  /** The clock of generated_at and the entries' times (tests). */
  now?: () => Date;
}

/** Deflate level: gzip's default, the level the bench compares with. */
export const ZIP_COMPRESSION_LEVEL = 6;
/**
 * CSV bytes written ahead of the deflate: while zlib's thread compresses one
 * chunk, the main thread writes the next ones. With one chunk of room the two
 * took turns, and the export ran at the sum of their times (bench/export).
 */
const AHEAD_BYTES = 4 * 1024 * 1024;
export const SINGLE_TAB_FILE = 'data.csv';
export {
  DICTIONARY_COLUMNS,
  DICTIONARY_FILE,
  FHIR_DICTIONARY_COLUMNS,
  MANIFEST_FILE,
  STUDY_HEALTH_DICTIONARY_SOURCE,
} from './archive-metadata.js';

const DATA_HEADER = Buffer.from(`${DATA_COLUMNS.join(',')}\n`);

useNativeCrc32();

interface DataFile {
  name: string;
  /** One COPY each: a participant and the file's metrics. */
  parts: { participant: ExportParticipant; metrics: ExportMetric[] }[];
}

function dataFiles(
  snapshot: ExportSnapshot,
  mode: ArchiveRequest['mode'],
  format: NonNullable<ArchiveRequest['format']>,
): DataFile[] {
  const { participants, metrics } = snapshot;
  if (format === 'fhir' || format === 'omh') return [];
  if (format === 'parquet')
    return metrics.map((metric) => ({
      name: `${metric.key}.parquet`,
      parts: participants.map((participant) => ({ participant, metrics: [metric] })),
    }));
  if (mode === 'single-tab') {
    return [
      {
        name: SINGLE_TAB_FILE,
        parts: participants.map((participant) => ({ participant, metrics })),
      },
    ];
  }
  return metrics.map((metric) => ({
    name: `${metric.key}.csv`,
    parts: participants.map((participant) => ({ participant, metrics: [metric] })),
  }));
}

export async function writeExportArchive(
  db: Db,
  req: ArchiveRequest,
  out: NodeJS.WritableStream,
  opts: ArchiveOptions,
): Promise<ArchiveResult> {
  const { signal } = opts;
  signal.throwIfAborted();
  if (req.metricKeys.some((k) => !/^[A-Za-z0-9_.-]+$/.test(k)))
    throw new Error('metric keys must be plain names');
  const snapshot = await openExportSnapshot(db, req);

  // The first failure (abort, SQL error, storage error) stops everything.
  let failure: unknown;
  let rejectFailed!: (err: unknown) => void;
  const failed = new Promise<never>((_, reject) => {
    rejectFailed = reject;
  });
  failed.catch(() => {});
  let current: Readable | null = null;
  const zip = new yazl.ZipFile();
  const fail = (err: unknown) => {
    if (failure !== undefined) return;
    failure = err ?? new Error('export failed');
    rejectFailed(failure);
    current?.destroy();
    void snapshot.close(failure);
    (zip.outputStream as Readable).destroy();
    // The caller aborts its storage writer; the stream stops taking bytes now.
    (out as Partial<Writable>).destroy?.();
  };
  const onAbort = () => fail(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();

  let zipBytes = 0;
  zip.outputStream.on('data', (chunk: Buffer) => {
    zipBytes += chunk.length;
  });
  const written = pipeline(zip.outputStream, out as NodeJS.WritableStream);
  written.catch(fail);

  try {
    const now = opts.now?.() ?? new Date();
    const zip64 = opts.zip64 === 'always';
    const entryOptions = { mtime: now, compressionLevel: ZIP_COMPRESSION_LEVEL, forceZip64Format: zip64 };

    let rowsWritten = 0;
    let rowsTotal = await Promise.race([snapshot.countUpperBound(), failed]);
    const report = () => {
      if (!opts.onProgress) return;
      if (rowsWritten > rowsTotal) rowsTotal = rowsWritten;
      opts.onProgress({ rowsWritten, rowsTotal });
    };
    report();

    const format = req.format ?? 'csv';
    const files: ArchiveFile[] = [];
    const onRows = (n: number) => {
      if (n === 0) return;
      rowsWritten += n;
      report();
    };
    /** One streamed data file: into the ZIP, its outcome awaited (or the first failure), listed. */
    const streamed = async (
      name: string,
      entry: { stream: Readable; result: Promise<EntryResult> },
      options = entryOptions,
    ) => {
      current = entry.stream;
      entry.stream.once('error', fail);
      zip.addReadStream(entry.stream, name, options);
      const r = await Promise.race([entry.result, failed]);
      files.push({ name, kind: 'data', ...r });
    };
    if (format === 'fhir') {
      for (const [name, file] of [
        [FHIR_FILES.patients, patientsFile(snapshot)],
        [FHIR_FILES.devices, devicesFile(snapshot)],
      ] as const) {
        zip.addBuffer(file.buffer, name, entryOptions);
        files.push({ name, kind: 'data', rows: file.rows, sha256: file.sha256, bytes: file.buffer.length });
      }
      await streamed(FHIR_FILES.observations, observationsEntry(snapshot, onRows));
    }
    const omitted: OmhOmitted = { noValue: 0, bloodPressureHalf: 0 };
    const omh = omhFiles(snapshot);
    if (format === 'omh') {
      // Checked in the tests against the published schemas (ajv); here, what the job can check cheaply.
      const check = (p: object) => {
        const header = (p as { header?: { id?: unknown } }).header;
        if (typeof header?.id !== 'string') throw new Error('Open mHealth: a data point without an id');
      };
      for (const file of omh.files)
        await streamed(file.name, omhEntry(snapshot, file, now.toISOString(), omitted, check, onRows));
    }
    for (const file of dataFiles(snapshot, req.mode, format))
      await streamed(
        file.name,
        format === 'parquet'
          ? parquetEntry(snapshot, file.parts, onRows, opts.parquetGroupRows)
          : csvEntry(snapshot, file.parts, onRows),
        format === 'parquet' ? { ...entryOptions, compressionLevel: 0 } : entryOptions,
      );
    current = null;
    await Promise.race([snapshot.close(), failed]);

    const dictionary = dictionaryFile(snapshot, format);
    files.push({
      name: DICTIONARY_FILE,
      kind: 'dictionary',
      rows: dictionary.rows,
      sha256: dictionary.sha256,
      bytes: dictionary.buffer.length,
    });
    zip.addBuffer(dictionary.buffer, DICTIONARY_FILE, entryOptions);
    const manifest = manifestOf({
      req,
      snapshot,
      format,
      now,
      files,
      omh: { ...omitted, unsupported: omh.unsupported },
    });
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_FILE, entryOptions);
    zip.end({ forceZip64Format: zip64, comment: '' });
    await Promise.race([written, failed]);
    if (failure !== undefined) throw failure;
    rowsTotal = rowsWritten;
    report();
    return { bytes: zipBytes, files };
  } catch (err) {
    fail(err);
    throw failure;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * One data file: the header, then each (participant, metric) COPY in turn,
 * hashed and counted on the way. `result` resolves when the last row has been
 * handed on; a row count different from what PostgreSQL reports fails it.
 */
function csvEntry(
  snapshot: ExportSnapshot,
  parts: DataFile['parts'],
  onRows: (n: number) => void,
): { stream: Readable; result: Promise<EntryResult> } {
  const { result, resolve, reject } = entryResult();
  async function* produce() {
    try {
      const hash = createHash('sha256');
      let rows = 0;
      let bytes = DATA_HEADER.length;
      hash.update(DATA_HEADER);
      yield DATA_HEADER;
      for (const { participant, metrics } of parts) {
        const copy = snapshot.copyRows(participant, metrics);
        const csv = new BinaryCopyCsv(copy.constants);
        let counted = 0;
        const handOn = (chunk: Buffer) => {
          hash.update(chunk);
          bytes += chunk.length;
          onRows(csv.rows - counted);
          counted = csv.rows;
          return chunk;
        };
        for await (const messages of copy.stream as AsyncIterable<Buffer>)
          for (const chunk of csv.write(messages)) yield handOn(chunk);
        const last = csv.end();
        if (last.length > 0) yield handOn(last);
        const lines = csv.rows;
        const copied = await copy.done;
        if (copied !== lines)
          throw new Error(`export: ${lines} CSV lines for ${copied} rows (participant ${participant.code})`);
        rows += lines;
      }
      resolve({ rows, sha256: hash.digest('hex'), bytes });
    } catch (err) {
      reject(err);
      throw err;
    }
  }
  return { stream: Readable.from(produce(), { objectMode: false, highWaterMark: AHEAD_BYTES }), result };
}
