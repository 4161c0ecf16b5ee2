/*
 * One CSV cell of a file a person opens in a spreadsheet (core §9's table
 * exports, the study-health report): quoted when needed, and a text starting
 * like a formula (= + - @, tab, carriage return) is prefixed with ' so no
 * spreadsheet runs it (CSV injection). The web's table export and the
 * server's report share it. (The batch export's data CSVs are PostgreSQL's
 * CSV, for statistics software, and keep their values as stored.)
 */
export function csvCell(v: string | number | null | undefined): string {
  const s = v === null || v === undefined ? '' : String(v);
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
