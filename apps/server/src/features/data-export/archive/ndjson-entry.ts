/*
 * One NDJSON data file of a standard format (FHIR, Open mHealth), streamed
 * like the CSV: each participant's binary COPY of the file's metrics
 * (binary-copy-columns.ts) → readings (export-readings.ts) → the format's
 * documents, each checked → one JSON line each → SHA-256 → the ZIP entry.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { BinaryCopyColumns } from './binary-copy-columns.js';
import { type EntryResult, entryResult } from './entry-result.js';
import { type ExportReading, readingsOf } from './export-readings.js';
import type { ExportMetric, ExportParticipant, ExportSnapshot } from './readings-stream-repo.js';

/** Rows read into one column group before they become documents. */
const GROUP_ROWS = 10_000;
/** Characters of lines gathered before they are handed to the ZIP. */
const CHUNK_CHARS = 1 << 20;

/** What a format makes of one participant's readings: documents per reading, and any held back to the end. */
export interface DocumentMaker {
  of(r: ExportReading): Iterable<object>;
  rest(): Iterable<object>;
}

export function ndjsonEntry(
  snapshot: ExportSnapshot,
  metrics: ExportMetric[],
  maker: (participant: ExportParticipant) => DocumentMaker,
  check: (document: object) => void,
  onRows: (n: number) => void,
): { stream: Readable; result: Promise<EntryResult> } {
  const { result, resolve, reject } = entryResult();
  const names = new Map(snapshot.metrics.map((m) => [m.key, m.name]));
  async function* produce() {
    try {
      const hash = createHash('sha256');
      let documents = 0;
      let bytes = 0;
      let lines: string[] = [];
      let pending = 0;
      const add = (d: object) => {
        check(d);
        const line = `${JSON.stringify(d)}\n`;
        lines.push(line);
        pending += line.length;
        documents += 1;
      };
      const handOn = (): Buffer[] => {
        if (lines.length === 0) return [];
        const chunk = Buffer.from(lines.join(''));
        lines = [];
        pending = 0;
        hash.update(chunk);
        bytes += chunk.length;
        return [chunk];
      };
      for (const participant of snapshot.participants) {
        const copy = snapshot.copyRows(participant, metrics);
        const columns = BinaryCopyColumns.next(null, GROUP_ROWS, copy.text);
        const make = maker(participant);
        let counted = 0;
        for await (const messages of copy.stream as AsyncIterable<Buffer>) {
          columns.write(messages);
          onRows(columns.rows - counted);
          counted = columns.rows;
          for (const g of columns.take()) {
            for (const r of readingsOf(g, participant.id, names)) for (const d of make.of(r)) add(d);
            if (pending >= CHUNK_CHARS) yield* handOn();
          }
        }
        columns.end();
        const copied = await copy.done;
        if (copied !== columns.rows)
          throw new Error(
            `export: ${columns.rows} rows read for ${copied} rows (participant ${participant.code})`,
          );
        const last = columns.rest();
        if (last) for (const r of readingsOf(last, participant.id, names)) for (const d of make.of(r)) add(d);
        for (const d of make.rest()) add(d);
        if (pending >= CHUNK_CHARS) yield* handOn();
      }
      yield* handOn();
      resolve({ rows: documents, sha256: hash.digest('hex'), bytes });
    } catch (err) {
      reject(err);
      throw err;
    }
  }
  return { stream: Readable.from(produce(), { objectMode: false, highWaterMark: 4 * 1024 * 1024 }), result };
}
