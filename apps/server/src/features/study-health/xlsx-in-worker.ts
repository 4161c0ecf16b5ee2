/*
 * The compliance report's XLSX, written in a worker thread. write-excel-file
 * builds the whole workbook on the thread that calls it: 3.7 s of CPU for a
 * trial of 1,000 participants × 90 days on this 2-core machine, during which
 * the server's own thread would answer no other request. The worker gets
 * plain cells (structured clone), builds the sheets and sends the file back.
 * One workbook at a time per process: a second request waits its turn rather
 * than take the other core too.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export type PlainCell = string | number | null;

/** A sheet as plain cells: its header row (bold, kept in view), then rows; numbers stay numbers, null is empty text. */
export interface PlainSheet {
  sheet: string;
  columns: readonly string[];
  rows: PlainCell[][];
}

/** The library's CommonJS entry (a worker evaluated from a string cannot resolve package names relative to us). */
const LIBRARY = createRequire(import.meta.url).resolve('write-excel-file/node');

// The worker's code, evaluated: no file of its own, so the same under the tests (src/) and in dist/.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const writeXlsxFile = require(workerData.library).default;
const cell = (v) => (typeof v === 'number' ? { type: Number, value: v } : { type: String, value: v === null ? '' : v });
const sheets = workerData.sheets.map((s) => ({
  sheet: s.sheet,
  data: [s.columns.map((c) => ({ value: c, fontWeight: 'bold' })), ...s.rows.map((row) => row.map(cell))],
  stickyRowsCount: 1,
}));
writeXlsxFile(sheets)
  .toBuffer()
  .then((file) => {
    // A small file sits in Node's shared Buffer pool, which cannot be transferred (Node 22 refuses
    // with DataCloneError): copy it; a file with a memory of its own is moved, not copied.
    const own = file.byteOffset === 0 && file.byteLength === file.buffer.byteLength;
    const bytes = own ? new Uint8Array(file.buffer) : new Uint8Array(file);
    parentPort.postMessage(bytes, [bytes.buffer]);
  });
`;

let queue: Promise<unknown> = Promise.resolve();

function runWorker(sheets: PlainSheet[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { library: LIBRARY, sheets } });
    let file: Buffer | null = null;
    worker.once('message', (bytes: Uint8Array) => {
      file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (file) resolve(file);
      else reject(new Error(`the XLSX worker exited (${code}) without a file`));
    });
  });
}

/** The workbook of these sheets, written in a worker thread; one at a time per process. */
export function xlsxInWorker(sheets: PlainSheet[]): Promise<Buffer> {
  const turn = queue.then(() => runWorker(sheets));
  // The next workbook waits for this one, whether it succeeds or fails.
  queue = turn.catch(() => undefined);
  return turn;
}
