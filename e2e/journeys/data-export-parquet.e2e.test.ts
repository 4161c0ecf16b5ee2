/*
 * A Parquet export in the browser (issue #24), against the built server, its
 * workers and the mounted Fitbit simulator: on a trial of its own with two
 * participants who link a Fitbit, a coordinator chooses Parquet in the form
 * (the export mode is then moot, and the form says so), the panel names the
 * format, and the ZIP holds one Parquet file per metric whose rows the
 * manifest counts as the store holds them (the values are compared with the
 * CSV's in apps/server/test/data-export/archive-parquet.int.test.ts).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXPORT_MESSAGES } from '@trialwear/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, screenshotPath, signIn } from '../support/browser.js';
import { withDatabase } from '../support/database.js';
import { type ExportJourneyWorld, exportJourneyWorld, isoDay } from '../support/export-journey.js';
import { zipBytes, zipNames, zipText } from '../support/export-zip.js';
import { accessible } from '../support/page-checks.js';
import { gone, shows } from '../support/wait.js';

const TRIAL_NUMBER = 'EXP-PQ-E2E';
const TRIAL_NAME = 'Parquet Export Journey Study';
const EMAILS = ['exp-pq-1@participants.trialwear.local', 'exp-pq-2@participants.trialwear.local'];
const METRICS = ['steps', 'calories'] as const;
const PARQUET_FILE = 'export-journey-parquet';

describe('batch data export as Parquet', () => {
  let browser: Browser;
  let world: ExportJourneyWorld | undefined;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-export-parquet-journey-'));

  beforeAll(async () => {
    browser = await launchBrowser();
    world = await exportJourneyWorld(browser, {
      number: TRIAL_NUMBER,
      name: TRIAL_NAME,
      emails: EMAILS,
      metrics: METRICS,
    });
  }, 180_000);

  afterAll(async () => {
    await world?.restore();
    await browser?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a Parquet export: chosen in the form, named in the panel, one Parquet file per metric in the ZIP', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'coordinator');
    await page.goto('/DataExport');
    await shows(page.getByRole('heading', { name: 'Batch Data Export' }));
    await page.getByRole('textbox', { name: 'Trial', exact: true }).click();
    await page.getByRole('option', { name: `#${TRIAL_NUMBER} - ${TRIAL_NAME}` }).click();
    await page.getByRole('textbox', { name: 'Device', exact: true }).click();
    await page.getByRole('option', { name: world!.deviceName, exact: true }).click();
    await page.getByRole('button', { name: 'Select all participants' }).click();
    const metrics = page.getByRole('group', { name: 'Metrics' });
    await metrics.getByRole('checkbox', { name: 'Steps', exact: true }).check();
    await metrics.getByRole('checkbox', { name: 'Calories burned (kcal)' }).check();
    const from = isoDay(6);
    const to = isoDay(2);
    await page.getByLabel(/^Start date/).fill(from);
    await page.getByLabel(/^End date/).fill(to);
    await page.getByRole('textbox', { name: 'File name', exact: true }).fill(PARQUET_FILE);
    // CSV is the default; Parquet makes the export mode moot (one file per metric) and says so.
    const formats = page.getByRole('radiogroup', { name: 'File format' });
    expect(await formats.getByRole('radio', { name: /^CSV/ }).isChecked()).toBe(true);
    await formats.getByRole('radio', { name: /^Parquet/ }).check();
    await shows(page.getByText('Parquet exports are one file per metric.'));
    expect(await page.getByRole('radio', { name: /Single tab/ }).isDisabled()).toBe(true);
    await page.getByRole('radiogroup', { name: 'File format' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'data-export-parquet-form');
    await accessible(page, 'the form with Parquet chosen');

    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const success = page.getByRole('dialog', { name: EXPORT_MESSAGES.successTitle });
    await success.getByRole('button', { name: 'OK' }).click();
    const row = page.getByRole('table', { name: 'Export jobs' }).locator('tbody tr', {
      hasText: `${PARQUET_FILE}.zip`,
    });
    await shows(row);
    await shows(row.getByText('2 metrics: Steps, Calories burned (Parquet, one file per metric)'));
    await expect
      .poll(() => row.locator('[data-job-status]').getAttribute('data-job-status'), {
        timeout: 90_000,
        interval: 500,
      })
      .toBe('completed');
    await page
      .getByRole('region', { name: 'Export jobs' })
      .screenshot({ path: screenshotPath('data-export-parquet-panel') });

    const href = (await row
      .getByRole('link', { name: `Download ${PARQUET_FILE}.zip` })
      .getAttribute('href'))!;
    const res = await page.request.get(href);
    expect(res.status()).toBe(200);
    const zipPath = path.join(tmp, `${PARQUET_FILE}.zip`);
    fs.writeFileSync(zipPath, await res.body());
    expect(zipNames(zipPath)).toEqual(
      [...METRICS]
        .sort()
        .map((m) => `${m}.parquet`)
        .concat(['data_dictionary.csv', 'manifest.json']),
    );
    const manifest = JSON.parse(zipText(zipPath, 'manifest.json'));
    expect(manifest.export.format).toBe('parquet');
    const stored = await withDatabase(async (db) => {
      const { rows } = await db.query<{ metric_key: string; n: string }>(
        `SELECT metric_key, count(*) AS n FROM device_readings
         WHERE participant_id = ANY($1) AND metric_key = ANY($2) AND local_date BETWEEN $3 AND $4
         GROUP BY 1`,
        [world!.participantIds, METRICS, from, to],
      );
      return new Map(rows.map((r) => [r.metric_key, Number(r.n)]));
    });
    for (const metric of METRICS) {
      const name = `${metric}.parquet`;
      const bytes = zipBytes(zipPath, name);
      // A Parquet file begins and ends with its magic number; the manifest holds its rows and hash.
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('PAR1');
      expect(bytes.subarray(-4).toString('latin1')).toBe('PAR1');
      const entry = manifest.files.find((f: { name: string }) => f.name === name);
      expect(entry.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(stored.get(metric), `stored ${metric} readings`).toBeGreaterThan(0);
      expect(entry.rows).toBe(stored.get(metric));
    }

    await row.getByRole('button', { name: `Delete ${PARQUET_FILE}.zip` }).click();
    const confirm = page.getByRole('dialog', { name: EXPORT_MESSAGES.deleteTitle });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await gone(row);
    await context.close();
  }, 240_000);
});
