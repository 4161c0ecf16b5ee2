import { describe, expect, it } from 'vitest';
import { type PlainSheet, xlsxInWorker } from './xlsx-in-worker.js';

const sheet = (rows: number): PlainSheet => ({
  sheet: 'Days',
  columns: ['participant_code', 'local_date', 'wear_minutes', 'metrics_present'],
  rows: Array.from({ length: rows }, (_, i) => [`P-${i % 1000}`, '2026-03-01', i % 1440, null]),
});

describe('the XLSX written in a worker thread', () => {
  it('leaves this thread free: its longest pause is a small part of the whole (a ratio, whatever the load)', async () => {
    // Timers every 5 ms on this thread while the workbook is written: on this thread, the
    // library's synchronous work would be one pause of nearly the whole time.
    const started = performance.now();
    let last = started;
    let longest = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    const file = await xlsxInWorker([sheet(30_000)]);
    clearInterval(timer);
    const total = performance.now() - started;
    longest = Math.max(longest, performance.now() - last);
    expect(file.subarray(0, 2).toString('latin1')).toBe('PK'); // a ZIP, as an .xlsx is
    expect(file.length).toBeGreaterThan(100_000);
    expect(longest / total, `longest pause ${longest.toFixed(0)} of ${total.toFixed(0)} ms`).toBeLessThan(
      0.5,
    );
  }, 60_000);

  it('two at once: each gets its own workbook, one after the other', async () => {
    const [a, b] = await Promise.all([xlsxInWorker([sheet(10)]), xlsxInWorker([sheet(2_000)])]);
    expect(a.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(b.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(b.length).toBeGreaterThan(a.length);
  }, 60_000);
});
