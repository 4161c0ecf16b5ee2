/*
 * Export the rows a table shows (filtered and sorted, all pages) as CSV or
 * XLSX, named with the product prefix (core §9). The XLSX writer is loaded
 * only when used.
 */
import { csvCell, EXPORT_FILE_PREFIX } from '@trialwear/contract';

export interface ExportColumn {
  /** The table column it mirrors: a column the user hid is not exported either. */
  id?: string;
  header: string;
  value: (row: unknown) => string | number | null | undefined;
}

function download(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function toCsv(columns: ExportColumn[], rows: unknown[]): string {
  const lines = [columns.map((c) => csvCell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(c.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function exportFileName(base: string, ext: 'csv' | 'xlsx', now = new Date()) {
  const stamp = now.toISOString().slice(0, 10);
  return `${EXPORT_FILE_PREFIX}${base.replace(/[^\w-]+/g, '_')}_${stamp}.${ext}`;
}

export async function exportRows(
  format: 'csv' | 'xlsx',
  base: string,
  columns: ExportColumn[],
  rows: unknown[],
) {
  if (format === 'csv') {
    download(
      new Blob([`\uFEFF${toCsv(columns, rows)}`], { type: 'text/csv;charset=utf-8' }),
      exportFileName(base, 'csv'),
    );
    return;
  }
  // The universal build writes in the page itself: the browser build's web worker would need blob: in our CSP.
  const { default: writeXlsxFile } = await import('write-excel-file/universal');
  const header = columns.map((c) => ({ value: c.header, fontWeight: 'bold' as const }));
  const body = rows.map((row) =>
    columns.map((c) => {
      const v = c.value(row);
      return typeof v === 'number'
        ? { type: Number, value: v }
        : { type: String, value: v === null || v === undefined ? '' : String(v) };
    }),
  );
  const blob = await writeXlsxFile([header, ...body]).toBlob();
  download(blob, exportFileName(base, 'xlsx'));
}
