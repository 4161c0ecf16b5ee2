/*
 * De-identified exports in the browser (issue #25 item 5, decision 049):
 * the demo `admin` exports the Cardiometabolic trial's Omron weights twice,
 * with the real dates and with "Shift dates (de-identify)"; the jobs panel
 * says "dates shifted", the shifted file moves each participant's dates by
 * one number of days (0–364) and keeps every value, and its manifest says
 * the dates are shifted without the real range. Then the Admin allows only
 * de-identified exports for the trial: the option is ticked and locked, with
 * the reason; the switch is put back afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { csvLines, metricCsv, zipNames, zipText } from '../support/export-zip.js';
import { accessible } from '../support/page-checks.js';
import { shows } from '../support/wait.js';

const TRIAL = '#004 - Cardiometabolic Home Monitoring';
const DAY_MS = 86_400_000;
const isoDay = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

describe('de-identified exports', () => {
  let browser: Browser;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-deid-'));
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Fills the form for the trial's Omron weights and exports; answers the downloaded ZIP's path. */
  async function exportWeights(page: Page, file: string, deidentify: boolean) {
    await page.getByRole('textbox', { name: 'Trial', exact: true }).click();
    await page.getByRole('option', { name: TRIAL }).click();
    await page.getByRole('textbox', { name: 'Device', exact: true }).click();
    await page.getByRole('option', { name: 'Omron Scale', exact: true }).click();
    await page.getByRole('button', { name: 'Select all participants' }).click();
    await page.getByRole('group', { name: 'Metrics' }).getByRole('checkbox', { name: 'Weight (kg)' }).check();
    await page.getByLabel(/^Start date/).fill(isoDay(29));
    await page.getByLabel(/^End date/).fill(isoDay(0));
    const shift = page.getByRole('checkbox', { name: /Shift dates/ });
    if (deidentify) await shift.check();
    expect(await shift.isChecked()).toBe(deidentify);
    await page.getByRole('textbox', { name: 'File name', exact: true }).fill(file);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    const row = page
      .getByRole('table', { name: 'Export jobs' })
      .locator('tbody tr', { hasText: `${file}.zip` });
    await expect
      .poll(() => row.locator('[data-job-status]').getAttribute('data-job-status'), {
        timeout: 90_000,
        interval: 500,
      })
      .toBe('completed');
    if (deidentify) await shows(row.getByText(/dates shifted/));
    const href = (await row.getByRole('link', { name: `Download ${file}.zip` }).getAttribute('href'))!;
    const res = await page.request.get(href);
    expect(res.status()).toBe(200);
    const zipPath = path.join(tmp, `${file}.zip`);
    fs.writeFileSync(zipPath, await res.body());
    return zipPath;
  }

  const rowsOf = (zipPath: string) => {
    const lines = csvLines(zipPath, metricCsv(zipNames(zipPath), 'weight')!);
    const header = lines[0]!.split(',');
    return lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i]!, v])));
  };

  it('shifts each participant’s dates by one number of days, keeps the values, and says so', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'admin');
    await page.getByRole('link', { name: 'Data Export' }).click();
    await page.waitForURL('**/DataExport');
    const plain = rowsOf(await exportWeights(page, 'deid-journey-real', false));
    await page.reload();
    const zipPath = await exportWeights(page, 'deid-journey-shifted', true);
    await screenshot(page, 'export-deidentified-panel');
    const shifted = rowsOf(zipPath);
    expect(shifted.length).toBe(plain.length);
    expect(plain.length).toBeGreaterThan(0);
    const days = new Map<string, Set<number>>();
    shifted.forEach((s, i) => {
      const p = plain[i]!;
      expect([s.participant_code, s.value, s.local_time, s.utc_offset]).toEqual([
        p.participant_code,
        p.value,
        p.local_time,
        p.utc_offset,
      ]);
      const d = (Date.parse(`${s.local_date}T00:00:00Z`) - Date.parse(`${p.local_date}T00:00:00Z`)) / DAY_MS;
      expect(Date.parse(s.measured_at_utc!) - Date.parse(p.measured_at_utc!)).toBe(d * DAY_MS);
      days.set(p.participant_code!, (days.get(p.participant_code!) ?? new Set()).add(d));
    });
    for (const [code, set] of days) {
      expect(set.size, code).toBe(1);
      const [d] = [...set];
      expect(d! >= 0 && d! < 365, code).toBe(true);
    }
    const manifest = JSON.parse(zipText(zipPath, 'manifest.json'));
    expect(manifest.export.dates_shifted).toBe(true);
    expect(JSON.stringify(manifest)).not.toContain(isoDay(29));
    await context.close();
  }, 300_000);

  it('an Admin allows only de-identified exports for the trial: the option is ticked and locked, with the reason', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'admin');
    await page.getByRole('link', { name: 'Data Export' }).click();
    await page.waitForURL('**/DataExport');
    await page.getByRole('textbox', { name: 'Trial', exact: true }).click();
    await page.getByRole('option', { name: TRIAL }).click();
    const allow = page.getByRole('switch', { name: 'Allow exports with real dates for this trial' });
    const shift = page.getByRole('checkbox', { name: /Shift dates/ });
    expect(await allow.isChecked()).toBe(true);
    try {
      await allow.click();
      await shows(page.getByText('Export policy saved.'));
      await shows(page.getByText(/This trial allows only de-identified exports/));
      expect(await shift.isChecked()).toBe(true);
      expect(await shift.isDisabled()).toBe(true);
      await screenshot(page, 'export-deidentified-locked');
      await accessible(page, 'the export form of a trial that allows only de-identified exports');
    } finally {
      if (!(await allow.isChecked())) await allow.click();
      await expect.poll(() => allow.isChecked()).toBe(true);
    }
    expect(await shift.isDisabled()).toBe(false);
    await context.close();
  }, 120_000);
});
