/* Reading a data table as a person sees it: the body rows' cell texts. */
import type { Page } from 'playwright-core';
import { shows } from './wait.js';

/**
 * The body rows of the table named `name`, each cell's text trimmed. Waits until it has `atLeast`
 * rows (one by default): right after a switch of period the previous period's rows are still there
 * for a moment, then none while the new ones load (a run under load read that empty body).
 */
export async function tableRows(page: Page, name: string, atLeast = 1): Promise<string[][]> {
  const table = page.getByRole('table', { name });
  await shows(table.locator('tbody tr').nth(atLeast - 1));
  return table
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent?.trim() ?? '')),
    );
}

/** The rows of a two-column table (a date and its value) as pairs. */
export async function tablePairs(page: Page, name: string, atLeast = 1): Promise<Array<[string, string]>> {
  return (await tableRows(page, name, atLeast)).map((r) => [r[0] ?? '', r[1] ?? '']);
}
