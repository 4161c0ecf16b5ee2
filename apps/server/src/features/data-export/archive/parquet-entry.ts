/*
 * One Parquet data file of the export (issue #24, decision 042): a metric's
 * rows, every participant's in turn, written with hyparquet-writer's
 * ParquetWriter as row groups of at most GROUP_ROWS rows, so memory holds one
 * group's columns and its encoded bytes, never the file:
 *
 *   COPY … TO STDOUT (binary) → column arrays (binary-copy-columns.ts)
 *   → ParquetWriter.write (one row group) → ChunkWriter's bytes → SHA-256 → the ZIP entry
 *
 * The columns are the CSV's (DATA_COLUMNS), in its order and with its values,
 * typed (the schema below); pandas / pyarrow, R arrow and DuckDB read them.
 * Pages are Snappy-compressed (the writer's default and every reader's), and
 * the ZIP stores the file as it is: deflating Snappy output again cost the
 * export time for a few percent (bench/export).
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { ByteWriter, type ColumnSource, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import { APP_VERSION } from '../../../version.js';
import { BinaryCopyColumns, type ColumnGroup } from './binary-copy-columns.js';
import { type EntryResult, entryResult } from './entry-result.js';
import {
  DATA_COLUMNS,
  type ExportMetric,
  type ExportParticipant,
  type ExportSnapshot,
} from './readings-stream-repo.js';

/**
 * Rows per row group. Small enough that a group's arrays (8 bytes a row) stay
 * under V8's large-object size (128 KiB) and die young: with 50,000 rows they
 * were large objects, freed only by full collections, and the writer's peak
 * RSS reached 318–330 MiB; 16,000 rows 274 MiB, 8,000 rows 238 MiB (bench/export,
 * 4 M rows). At 20 M rows 10,000 peaked at 331 MiB (the writer's page buffers
 * grow by doubling: more garbage outside the heap per group) and 5,000 at
 * 225 MiB, as fast (2.70× vs 2.73× the baseline) for a file 1.7× larger (still
 * 1/15 of the CSV's ZIP). Readers take many groups in their stride.
 */
export const GROUP_ROWS = 5_000;

const text = (name: string, repetition_type: 'REQUIRED' | 'OPTIONAL'): SchemaElement => ({
  name,
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  logical_type: { type: 'STRING' },
  repetition_type,
});

/** The Parquet schema of a data file: DATA_COLUMNS in order, typed. */
export const PARQUET_SCHEMA: SchemaElement[] = [
  { name: 'root', num_children: DATA_COLUMNS.length },
  text('participant_code', 'REQUIRED'),
  text('metric_key', 'REQUIRED'),
  {
    name: 'local_date',
    type: 'INT32',
    converted_type: 'DATE',
    logical_type: { type: 'DATE' },
    repetition_type: 'REQUIRED',
  },
  {
    name: 'local_time',
    type: 'INT64',
    converted_type: 'TIME_MICROS',
    logical_type: { type: 'TIME', isAdjustedToUTC: false, unit: 'MICROS' },
    repetition_type: 'OPTIONAL',
  },
  text('utc_offset', 'OPTIONAL'),
  {
    name: 'measured_at_utc',
    type: 'INT64',
    converted_type: 'TIMESTAMP_MICROS',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
    repetition_type: 'REQUIRED',
  },
  { name: 'value', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
  text('unit', 'OPTIONAL'),
  {
    name: 'value_json',
    type: 'BYTE_ARRAY',
    converted_type: 'JSON',
    logical_type: { type: 'JSON' },
    repetition_type: 'OPTIONAL',
  },
  text('device', 'OPTIONAL'),
  text('source', 'OPTIONAL'),
  { name: 'display_value', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
  text('display_unit', 'OPTIONAL'),
];

/**
 * The schema the pages are encoded with: value_json as UTF-8 text. The writer
 * re-serializes values of the JSON type (JSON.stringify of parsed values), and
 * the text must stay PostgreSQL's, as in the CSV; the footer, written last,
 * declares PARQUET_SCHEMA (JSON, which DuckDB reads as JSON only with the
 * converted type). The bytes are the same either way.
 */
const ENCODING_SCHEMA: SchemaElement[] = PARQUET_SCHEMA.map((e) =>
  e.name === 'value_json' ? { ...e, converted_type: 'UTF8' } : e,
);

/** The Parquet types as the manifest describes them. */
export const PARQUET_COLUMN_TYPES: Record<(typeof DATA_COLUMNS)[number], string> = {
  participant_code: 'STRING (dictionary)',
  metric_key: 'STRING (dictionary)',
  local_date: 'DATE',
  local_time: 'TIME(MICROS, local); null when not stored',
  utc_offset: 'STRING ±HH:MM (dictionary); null when the provider gave none',
  measured_at_utc: 'TIMESTAMP(MICROS, isAdjustedToUTC=true)',
  value: 'DOUBLE; null when none',
  unit: 'STRING (dictionary)',
  value_json: 'JSON text; null when none',
  device: 'STRING (dictionary)',
  source: 'STRING (dictionary)',
  display_value:
    'DOUBLE, the value as the pages show it (mi, Lbs); null for a metric shown in its stored unit',
  display_unit: 'STRING (dictionary); null for a metric shown in its stored unit',
};

/**
 * Repeated texts: one dictionary per column chunk, whatever the writer's
 * estimate. Dates, times and instants: deltas (DELTA_BINARY_PACKED), which a
 * series on a grid packs to almost nothing, and which the writer encodes
 * faster than it tries a dictionary of every distinct instant (bench/export).
 */
const ENCODINGS: Partial<Record<keyof ColumnGroup, 'RLE_DICTIONARY' | 'DELTA_BINARY_PACKED'>> = {
  local_date: 'DELTA_BINARY_PACKED',
  local_time: 'DELTA_BINARY_PACKED',
  measured_at_utc: 'DELTA_BINARY_PACKED',
  participant_code: 'RLE_DICTIONARY',
  metric_key: 'RLE_DICTIONARY',
  utc_offset: 'RLE_DICTIONARY',
  unit: 'RLE_DICTIONARY',
  device: 'RLE_DICTIONARY',
  source: 'RLE_DICTIONARY',
  display_unit: 'RLE_DICTIONARY',
};

/** The writer's bytes, taken after each row group (ParquetWriter flushes after each) and at the end. */
class ChunkWriter extends ByteWriter {
  private chunks: Buffer[] = [];
  constructor() {
    super(1 << 20);
  }
  flush() {
    if (this.index === 0) return;
    this.chunks.push(Buffer.from(new Uint8Array(this.buffer, 0, this.index)));
    this.index = 0;
  }
  override finish() {
    this.flush();
  }
  take(): Buffer[] {
    const chunks = this.chunks;
    this.chunks = [];
    return chunks;
  }
}

/**
 * Min/max statistics only where readers filter (which participant, metric,
 * day or instant): they let DuckDB and pyarrow skip row groups, and each
 * column's cost a pass over its values (about a tenth of the writer's time).
 */
const STATISTICS = new Set<string>(['participant_code', 'metric_key', 'local_date', 'measured_at_utc']);

function columnData(g: ColumnGroup): ColumnSource[] {
  return DATA_COLUMNS.map((name) => ({
    name,
    data: g[name],
    encoding: ENCODINGS[name],
    statistics: STATISTICS.has(name),
  }));
}

/**
 * One Parquet data file: each participant's COPY of the metric in turn, hashed
 * and counted on the way; `result` resolves once the file's footer is handed
 * on. A row count different from what PostgreSQL reports fails it.
 */
export function parquetEntry(
  snapshot: ExportSnapshot,
  parts: { participant: ExportParticipant; metrics: ExportMetric[] }[],
  onRows: (n: number) => void,
  groupRows = GROUP_ROWS,
): { stream: Readable; result: Promise<EntryResult> } {
  const { result, resolve, reject } = entryResult();
  async function* produce() {
    try {
      const hash = createHash('sha256');
      let rows = 0;
      let bytes = 0;
      const writer = new ChunkWriter();
      const parquet = new ParquetWriter({
        writer,
        schema: ENCODING_SCHEMA,
        createdBy: `TrialWear ${APP_VERSION} (hyparquet-writer)`,
      });
      const handOn = () => {
        const chunks = writer.take();
        for (const chunk of chunks) {
          hash.update(chunk);
          bytes += chunk.length;
        }
        return chunks;
      };
      const writeGroup = (g: ColumnGroup) => {
        // Synchronous: ChunkWriter.flush returns nothing, so the bytes are there when write returns.
        void parquet.write({ columnData: columnData(g), rowGroupSize: g.rows });
        return handOn();
      };
      yield* handOn(); // PAR1
      let columns: BinaryCopyColumns | null = null;
      for (const { participant, metrics } of parts) {
        const copy = snapshot.copyRows(participant, metrics);
        columns = BinaryCopyColumns.next(columns, groupRows, copy.text);
        let counted = 0;
        for await (const messages of copy.stream as AsyncIterable<Buffer>) {
          columns.write(messages);
          onRows(columns.rows - counted);
          counted = columns.rows;
          for (const g of columns.take()) yield* writeGroup(g);
        }
        columns.end();
        const copied = await copy.done;
        if (copied !== columns.rows)
          throw new Error(
            `export: ${columns.rows} Parquet rows for ${copied} rows (participant ${participant.code})`,
          );
        rows += columns.rows;
      }
      const last = columns?.rest();
      if (last) yield* writeGroup(last);
      parquet.schema = PARQUET_SCHEMA;
      void parquet.finish();
      yield* handOn();
      resolve({ rows, sha256: hash.digest('hex'), bytes });
    } catch (err) {
      reject(err);
      throw err;
    }
  }
  return { stream: Readable.from(produce(), { objectMode: false, highWaterMark: 4 * 1024 * 1024 }), result };
}
