/*
 * The first hour (issue #26, done when): on the server as `npm start` runs
 * it, with the demo seeded and nothing configured, the demo `admin` sees the
 * Omron and Dexcom participants of the Cardiometabolic Home Monitoring trial
 * synced (their first sync started in the background at start), and the
 * export page turns them into a ZIP with data: Omron weight, whose CSV
 * carries the Lbs the pages show beside the stored kg (decision 044). Reads
 * only what the demo seeded; writes one export job of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { kgToLb } from '@trialwear/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, screenshotPath, signIn } from '../support/browser.js';
import { isoDay } from '../support/export-journey.js';
import { csvLines, metricCsv, zipNames } from '../support/export-zip.js';
import { shows } from '../support/wait.js';

const TRIAL = 'Cardiometabolic Home Monitoring';
const FILE = 'first-hour-weight';

describe('the first hour: every device, and an export with data, with no configuration', () => {
  let browser: Browser;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-first-hour-'));
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("the demo trial's Omron and Dexcom participants are synced; the export page gives their data", async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'admin');
    await page.getByRole('button', { name: TRIAL }).click();
    await page.waitForURL('**/TrialPage');
    const table = page.getByRole('table', { name: 'Participants' });
    // The first sync ran in the background after the start: each linked participant shows it.
    for (const code of ['CHM-001', 'CHM-002', 'CHM-003'])
      await expect
        .poll(
          async () => {
            await page.reload();
            return table
              .locator('tbody tr', { hasText: code })
              .locator('[data-sync-status]')
              .first()
              .getAttribute('data-sync-status');
          },
          { timeout: 90_000, interval: 2_000 },
        )
        .toBe('ok');
    await shows(table.locator('tbody tr', { hasText: 'CHM-004' }));
    await screenshot(page, 'first-hour-trial');

    await page.getByRole('link', { name: 'Data Export' }).click();
    await page.waitForURL('**/DataExport');
    await shows(page.getByTestId('export-units'));
    expect(await page.getByTestId('export-units').textContent()).toContain('display_value and display_unit');
    await page
      .getByTestId('export-units')
      .locator('..')
      .screenshot({ path: screenshotPath('first-hour-export-intro') });
    await page.getByRole('textbox', { name: 'Trial', exact: true }).click();
    await page.getByRole('option', { name: `#004 - ${TRIAL}` }).click();
    await page.getByRole('textbox', { name: 'Device', exact: true }).click();
    await page.getByRole('option', { name: 'Omron Scale', exact: true }).click();
    await page.getByRole('button', { name: 'Select all participants' }).click();
    for (const code of ['CHM-001', 'CHM-002']) await shows(page.getByText(new RegExp(`^${code}`)));
    const metrics = page.getByRole('group', { name: 'Metrics' });
    await metrics.getByRole('checkbox', { name: 'Weight (kg)' }).check();
    await page.getByLabel(/^Start date/).fill(isoDay(29));
    await page.getByLabel(/^End date/).fill(isoDay(0));
    await page.getByRole('textbox', { name: 'File name', exact: true }).fill(FILE);
    await screenshot(page, 'first-hour-export-form');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();

    const row = page
      .getByRole('table', { name: 'Export jobs' })
      .locator('tbody tr', { hasText: `${FILE}.zip` });
    await expect
      .poll(() => row.locator('[data-job-status]').getAttribute('data-job-status'), {
        timeout: 60_000,
        interval: 500,
      })
      .toBe('completed');
    await screenshot(page, 'first-hour-export-completed');
    const href = (await row.getByRole('link', { name: `Download ${FILE}.zip` }).getAttribute('href'))!;
    const res = await page.request.get(href);
    expect(res.status()).toBe(200);
    const zipPath = path.join(tmp, `${FILE}.zip`);
    fs.writeFileSync(zipPath, await res.body());
    const lines = csvLines(zipPath, metricCsv(zipNames(zipPath), 'weight')!);
    const header = lines[0]!.split(',');
    expect(header.slice(-2)).toEqual(['display_value', 'display_unit']);
    const rows = lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i], v])));
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.participant_code))).toEqual(new Set(['CHM-001', 'CHM-002']));
    for (const r of rows) {
      expect(r.unit).toBe('kg');
      expect(r.display_unit).toBe('Lbs');
      expect(Number(r.display_value)).toBe(kgToLb(Number(r.value)));
    }
    await context.close();
  }, 240_000);
});
