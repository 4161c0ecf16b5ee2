/*
 * The rows of an uploaded participants file (decision 045). CSV (UTF-8,
 * comma, or semicolon when the header has no comma; csv-parse) or XLSX (the
 * first worksheet; exceljs), told apart by content — an XLSX is a ZIP
 * ("PK\x03\x04") — never by the file's name. Bounded: the route caps the
 * bytes; an XLSX is unpacked once with yauzl first, counting, and refused if
 * its entries unpack past maxUnzippedBytes (yauzl also refuses an entry that
 * unpacks past its declared size), so exceljs never holds a ZIP bomb; more
 * than maxRows participant rows is an error. Rows whose every cell is empty
 * are skipped; `row` is the row number a spreadsheet shows (the header is 1).
 */
import {
  IMPORT_MESSAGES,
  type ImportFormat,
  type ImportRowValues,
  PARTICIPANT_IMPORT_COLUMNS,
  PARTICIPANT_IMPORT_LIMITS,
} from '@trialwear/contract';
import { parse } from 'csv-parse/sync';
import yauzl from 'yauzl';

/** The file as a whole cannot be read: nothing is previewed or created. */
export class ImportFileError extends Error {}

export interface FileRow {
  row: number;
  values: ImportRowValues;
  /** A non-empty cell right of the header's columns. */
  extraCells: boolean;
}

export interface ParticipantFile {
  format: ImportFormat;
  rows: FileRow[];
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export async function readParticipantFile(
  bytes: Buffer,
  limits: { maxRows: number; maxUnzippedBytes: number } = PARTICIPANT_IMPORT_LIMITS,
): Promise<ParticipantFile> {
  if (bytes.length === 0) throw new ImportFileError(IMPORT_MESSAGES.empty);
  const xlsx = bytes.subarray(0, 4).equals(ZIP_MAGIC);
  const records = xlsx ? await xlsxRecords(bytes, limits.maxUnzippedBytes) : csvRecords(bytes);
  const nonEmpty = records.filter((r) => r.cells.some((c) => c.trim() !== ''));
  const [header, ...data] = nonEmpty;
  if (!header) throw new ImportFileError(IMPORT_MESSAGES.empty);
  const columns = headerColumns(header.cells);
  if (data.length === 0) throw new ImportFileError(IMPORT_MESSAGES.empty);
  if (data.length > limits.maxRows) throw new ImportFileError(IMPORT_MESSAGES.tooManyRows);
  return {
    format: xlsx ? 'xlsx' : 'csv',
    rows: data.map(({ row, cells }) => ({
      row,
      values: Object.fromEntries(
        PARTICIPANT_IMPORT_COLUMNS.map((name) => [name, cells[columns.indexOf(name)] ?? '']),
      ) as ImportRowValues,
      extraCells: cells.slice(columns.length).some((c) => c.trim() !== ''),
    })),
  };
}

/** The header's names in the file's order: the five columns, each once, in any order and case. */
function headerColumns(cells: string[]): string[] {
  const names = cells.map((c) => c.trim());
  while (names.length && names.at(-1) === '') names.pop();
  const columns = names.map(
    (n) => PARTICIPANT_IMPORT_COLUMNS.find((c) => c.toLowerCase() === n.toLowerCase()) ?? '',
  );
  const complete =
    columns.length === PARTICIPANT_IMPORT_COLUMNS.length &&
    PARTICIPANT_IMPORT_COLUMNS.every((c) => columns.includes(c));
  if (!complete) throw new ImportFileError(IMPORT_MESSAGES.wrongHeader);
  return columns;
}

interface RawRecord {
  row: number;
  cells: string[];
}

function csvRecords(bytes: Buffer): RawRecord[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ImportFileError(IMPORT_MESSAGES.unreadable);
  }
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  // Spreadsheets in locales with a decimal comma write CSV with semicolons.
  const delimiter = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  try {
    const records: string[][] = parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
      // Kept, so that a record's index is its row number (blank rows are skipped after).
      skip_empty_lines: false,
    });
    return records.map((cells, i) => ({ row: i + 1, cells }));
  } catch {
    // An unclosed quote, a quote inside an unquoted cell…: the file is not CSV.
    throw new ImportFileError(IMPORT_MESSAGES.unreadable);
  }
}

/**
 * exceljs, imported on first use (an XLSX import or template) rather than with the server: it was
 * a third of loading the server's modules (platform/startup-modules.int.test.ts).
 */
export async function loadExcelJS() {
  return (await import('exceljs')).default;
}

async function xlsxRecords(bytes: Buffer, maxUnzippedBytes: number): Promise<RawRecord[]> {
  await checkUnzippedSize(bytes, maxUnzippedBytes);
  const ExcelJS = await loadExcelJS();
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new ImportFileError(IMPORT_MESSAGES.unreadable);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new ImportFileError(IMPORT_MESSAGES.empty);
  const records: RawRecord[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    // The text a spreadsheet shows: a hyperlinked email's text, a formula's result, a number as typed.
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = cell.text ?? '';
    });
    records.push({ row: rowNumber, cells: Array.from(cells, (c) => c ?? '') });
  });
  return records;
}

/** Unpacks every entry once, counting; more than `max` bytes in all is refused before exceljs reads it. */
function checkUnzippedSize(bytes: Buffer, max: number): Promise<void> {
  const tooBig = () => new ImportFileError(IMPORT_MESSAGES.unzippedTooBig);
  const unreadable = () => new ImportFileError(IMPORT_MESSAGES.unreadable);
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) return reject(unreadable());
      let declared = 0;
      const fail = (e: ImportFileError) => {
        zip.close();
        reject(e);
      };
      zip.on('error', () => fail(unreadable()));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        declared += entry.uncompressedSize;
        if (declared > max) return fail(tooBig());
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return fail(unreadable());
          // yauzl fails the stream if the entry unpacks to more than it declared (validateEntrySizes).
          stream.on('error', () => fail(unreadable()));
          stream.on('end', () => zip.readEntry());
          stream.resume();
        });
      });
      zip.readEntry();
    });
  });
}
