/*
 * Batch data export in the browser (issue #12), against the built server,
 * its workers and the mounted Fitbit simulator. A journey trial of its own
 * with two participants who link a Fitbit; the demo team stores steps and
 * calories for the duration (put back afterwards). A coordinator (role User)
 * fills the form, meeting every §5 message once, requests an export, sees
 * the success modal and watches the job in the panel go processing →
 * completed; downloads the ZIP (the link opens a new tab; the test fetches
 * its address with the page's cookies) and unzips it: the CSV header and
 * every stored reading of the range are there. A second export is cancelled
 * while processing; both are deleted after the confirmation. The Parquet
 * export: data-export-parquet.e2e.test.ts.
 *
 * The processing state is made observable honestly: the journey holds an
 * ACCESS EXCLUSIVE lock on export_fetch_coverage (only export jobs read it),
 * so the jobs are really running — claimed, leased, heart-beating — and
 * wait at their first step until the lock is released. With 2 × 29 days of
 * data the writing itself takes milliseconds, far less than the panel's
 * 10 s poll, so what the panel can show while processing is the
 * indeterminate bar ('Preparing the data'); the percent bar is covered by
 * the unit tests and the screenshots with fixtures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXPORT_MESSAGES } from '@trialwear/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, screenshotPath, signIn } from '../support/browser.js';
import { withDatabase } from '../support/database.js';
import { exportJourneyWorld, isoDay } from '../support/export-journey.js';
import { csvLines, DATA_CSV_HEADER, metricCsv, zipNames, zipText } from '../support/export-zip.js';
import { waitForMail } from '../support/inbox.js';
import { accessible } from '../support/page-checks.js';
import { gone, shows } from '../support/wait.js';

const TRIAL_NUMBER = 'EXP-E2E';
const TRIAL_NAME = 'Export Journey Study';
const EMAILS = ['exp-e2e-1@participants.trialwear.local', 'exp-e2e-2@participants.trialwear.local'];
const METRICS = ['steps', 'calories'] as const;
const FILE = 'export-journey';
const CANCEL_FILE = 'export-journey-cancelled';
async function shot(page: Page, name: string) {
  await screenshot(page, `data-export-${name}`);
}

/** The texts a field's aria-describedby points at (its error among them). */
const describedBy = (field: Locator) =>
  field.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
      .join(' | '),
  );

describe('batch data export', () => {
  let browser: Browser;
  let restoreMetrics: (() => Promise<unknown>) | undefined;
  let releaseLock: (() => void) | undefined;
  let lockHeld: Promise<unknown> | undefined;
  const participantIds: number[] = [];
  const codes: string[] = [];
  let deviceName = '';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-export-journey-'));

  beforeAll(async () => {
    browser = await launchBrowser();
    // The journey's own trial, the coordinator on it, two participants who link a Fitbit.
    const world = await exportJourneyWorld(browser, {
      number: TRIAL_NUMBER,
      name: TRIAL_NAME,
      emails: EMAILS,
      metrics: METRICS,
    });
    participantIds.push(...world.participantIds);
    codes.push(...world.codes);
    deviceName = world.deviceName;
    restoreMetrics = world.restore;
  }, 180_000);

  afterAll(async () => {
    releaseLock?.();
    await lockHeld;
    await restoreMetrics?.();
    await browser?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('form with every validation message, export, processing → completed, download and unzip, cancel, delete', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'coordinator');
    await page.getByRole('link', { name: 'Data Export' }).click();
    await page.waitForURL('**/DataExport');
    await shows(page.getByRole('heading', { name: 'Batch Data Export' }));
    await shows(page.getByRole('heading', { name: 'Export jobs' }));
    const exportButton = page.getByRole('button', { name: 'Export', exact: true });
    const trial = page.getByRole('textbox', { name: 'Trial', exact: true });
    const device = page.getByRole('textbox', { name: 'Device', exact: true });
    const participants = page.getByRole('textbox', { name: 'Participants', exact: true });
    const start = page.getByLabel(/^Start date/);
    const end = page.getByLabel(/^End date/);
    const metrics = page.getByRole('group', { name: 'Metrics' });
    const fileName = page.getByRole('textbox', { name: 'File name', exact: true });
    expect(await participants.isDisabled()).toBe(true);
    await shot(page, 'empty');

    // 1. An empty submit: each field says what it needs, tied to it, and the first takes the focus.
    await exportButton.click();
    const once = async (message: string, field: Locator) => {
      await shows(page.getByText(message, { exact: true }));
      expect(await page.getByText(message, { exact: true }).count()).toBe(1);
      expect(await describedBy(field)).toContain(message);
    };
    await once(EXPORT_MESSAGES.trialRequired, trial);
    await once(EXPORT_MESSAGES.deviceRequired, device);
    await once(EXPORT_MESSAGES.participantsRequired, participants);
    await once(EXPORT_MESSAGES.datesRequired, start);
    await once(EXPORT_MESSAGES.metricsRequired, metrics);
    await once(EXPORT_MESSAGES.fileNameRequired, fileName);
    expect(await trial.getAttribute('aria-invalid')).toBe('true');
    expect(await trial.evaluate((el) => el === document.activeElement)).toBe(true);
    await shot(page, 'validation');
    await accessible(page, 'the form with every message');

    // 2. Trial and device: the participants of the trial with a Fitbit, the metrics the team stores.
    await trial.click();
    await page.getByRole('option', { name: `#${TRIAL_NUMBER} - ${TRIAL_NAME}` }).click();
    // A device the team stores nothing of (the demo stores every other device's usual metrics):
    // who must do what (a coordinator opens neither page: they are named, not linked).
    await device.click();
    await page.getByRole('option', { name: 'Fitbit Aria Scale', exact: true }).click();
    const nothing = page.getByTestId('nothing-stored');
    await shows(nothing);
    expect(await nothing.textContent()).toContain(
      'Your team stores no metric of this device. To export its data, a system administrator enables its metrics for your team in Device Metrics Manager, then an Admin chooses the metrics to store in Data Storage & Retention',
    );
    expect(await nothing.getByRole('link').count()).toBe(0);
    await device.click();
    await page.getByRole('option', { name: deviceName, exact: true }).click();
    await gone(page.getByText(EXPORT_MESSAGES.trialRequired, { exact: true }));
    await shows(page.getByRole('button', { name: 'Select all participants' }));
    expect(await describedBy(participants)).toContain('0 of 2 selected');
    await page.getByRole('button', { name: 'Select all participants' }).click();
    expect(await describedBy(participants)).toContain('2 of 2 selected');
    for (const code of codes) await shows(page.getByText(new RegExp(`^${code}`)));
    await shows(metrics.getByRole('checkbox', { name: 'Steps', exact: true }));
    await metrics.getByRole('checkbox', { name: 'Steps', exact: true }).check();
    await metrics.getByRole('checkbox', { name: 'Calories burned (kcal)' }).check();
    expect(await describedBy(metrics)).toMatch(/\b2 of \d+ selected/);
    await fileName.fill(FILE);

    // 3. The date rules, one at a time: start after end, then more than a year.
    const from = isoDay(30);
    const to = isoDay(2);
    await start.fill(to);
    await end.fill(from);
    await exportButton.click();
    await once(EXPORT_MESSAGES.startAfterEnd, start);
    await shot(page, 'start-after-end');
    await start.fill(isoDay(400));
    await end.fill(to);
    await exportButton.click();
    await once(EXPORT_MESSAGES.rangeTooLong, start);
    expect(await page.getByText(EXPORT_MESSAGES.startAfterEnd, { exact: true }).count()).toBe(0);
    await start.fill(from);
    await gone(page.getByText(EXPORT_MESSAGES.rangeTooLong, { exact: true }));

    // 4. Hold the jobs at their first step, so that the panel can show them processing.
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => {
      locked = r;
    });
    const release = new Promise<void>((r) => {
      releaseLock = r;
    });
    lockHeld = withDatabase(async (db) => {
      await db.query('BEGIN');
      await db.query('LOCK TABLE export_fetch_coverage IN ACCESS EXCLUSIVE MODE');
      locked();
      await release;
      await db.query('COMMIT');
    });
    await isLocked;

    // 5. Submit: the success modal.
    await exportButton.click();
    const success = page.getByRole('dialog', { name: EXPORT_MESSAGES.successTitle });
    await shows(success.getByText(EXPORT_MESSAGES.success, { exact: true }));
    await shot(page, 'success-modal');
    await accessible(page, 'the success modal');
    await success.getByRole('button', { name: 'OK' }).click();
    await gone(success);

    // 6. The panel, polled every 10 s: the job running, with its (indeterminate) progress bar.
    const table = page.getByRole('table', { name: 'Export jobs' });
    const row = table.locator('tbody tr', { hasText: `${FILE}.zip` });
    const statusOf = (r: Locator) => r.locator('[data-job-status]').getAttribute('data-job-status');
    await shows(row);
    await expect.poll(() => statusOf(row), { timeout: 25_000, interval: 250 }).toBe('processing');
    await shows(row.getByRole('progressbar', { name: `Progress of ${FILE}` }));
    await shows(row.getByText('Preparing the data'));
    await shows(row.getByText(`2 participants: ${codes.join(', ')}`));
    // Metrics by the names the form shows, participants by code (the server's labels).
    await shows(row.getByText('2 metrics: Steps, Calories burned (one CSV per metric)'));
    await shows(row.getByText(`${from} to ${to}`));
    await shows(row.getByRole('button', { name: `Cancel ${FILE}.zip` }));
    expect(await row.getByRole('link', { name: `Download ${FILE}.zip` }).count()).toBe(0);
    await shot(page, 'processing');
    await page
      .getByRole('region', { name: 'Export jobs' })
      .screenshot({ path: screenshotPath('data-export-processing-panel') });
    await accessible(page, 'the panel with a processing job');

    // 7. A second export (one CSV), cancelled while it runs: it stops and says so.
    await page.getByRole('radio', { name: /Single tab/ }).check();
    await fileName.fill(CANCEL_FILE);
    await exportButton.click();
    await success.getByRole('button', { name: 'OK' }).click();
    const cancelRow = table.locator('tbody tr', { hasText: `${CANCEL_FILE}.zip` });
    await shows(cancelRow);
    await shows(cancelRow.getByRole('button', { name: `Cancel ${CANCEL_FILE}.zip` }));
    expect(['pending', 'processing']).toContain(await statusOf(cancelRow));
    // Cancel asks first, as Delete does; keeping it running changes nothing.
    await cancelRow.getByRole('button', { name: `Cancel ${CANCEL_FILE}.zip` }).click();
    const confirmCancel = page.getByRole('dialog', { name: EXPORT_MESSAGES.cancelTitle });
    await shows(confirmCancel.getByText(EXPORT_MESSAGES.cancelConfirm, { exact: false }));
    await confirmCancel.getByRole('button', { name: 'Keep it running' }).click();
    await gone(confirmCancel);
    expect(['pending', 'processing']).toContain(await statusOf(cancelRow));
    await cancelRow.getByRole('button', { name: `Cancel ${CANCEL_FILE}.zip` }).click();
    await confirmCancel.getByRole('button', { name: 'Cancel export' }).click();
    await shows(page.getByText(EXPORT_MESSAGES.cancelled, { exact: true }));
    await expect.poll(() => statusOf(cancelRow), { timeout: 15_000, interval: 250 }).toBe('cancelled');
    await shows(cancelRow.getByText(EXPORT_MESSAGES.cancelledByUser, { exact: true }));
    await shows(cancelRow.getByRole('button', { name: `Delete ${CANCEL_FILE}.zip` }));
    await shot(page, 'cancelled');

    // 8. Released: the first job fetches through the sync path, writes the ZIP and completes.
    releaseLock?.();
    await lockHeld;
    await expect.poll(() => statusOf(row), { timeout: 60_000, interval: 500 }).toBe('completed');
    await shows(row.getByText(/^\d+(\.\d)? (B|KB|MB)$/));
    await shows(row.getByText(/^Kept until \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/));
    expect(await row.getByRole('progressbar').count()).toBe(0);
    const cancelled = await withDatabase(async (db) => {
      const { rows } = await db.query<{ status: string; file_size: string | null }>(
        `SELECT status, file_size FROM export_jobs WHERE job_params->>'fileName' = $1`,
        [CANCEL_FILE],
      );
      return rows;
    });
    expect(cancelled).toEqual([{ status: 'cancelled', file_size: null }]);
    await shot(page, 'completed');
    await page
      .getByRole('region', { name: 'Export jobs' })
      .screenshot({ path: screenshotPath('data-export-completed-panel') });
    await accessible(page, 'the panel with a completed and a cancelled job');

    // The first job's owner and parameters, for step 11.
    const first = await withDatabase(async (db) => {
      const { rows } = await db.query(
        `SELECT team_id, user_id, trial_id, job_params FROM export_jobs WHERE job_params->>'fileName' = $1`,
        [FILE],
      );
      return rows[0] as { team_id: number; user_id: number; trial_id: number; job_params: unknown };
    });

    // 9. Download: a link opening a new tab; fetched here with the page's cookies and unzipped.
    const link = row.getByRole('link', { name: `Download ${FILE}.zip` });
    expect(await link.getAttribute('target')).toBe('_blank');
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/dataExport\/jobs\/[0-9a-f-]{36}\/download$/);
    const res = await page.request.get(href);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/zip');
    expect(res.headers()['content-disposition']).toContain(`filename="${FILE}.zip"`);
    const zipPath = path.join(tmp, `${FILE}.zip`);
    fs.writeFileSync(zipPath, await res.body());
    const names = zipNames(zipPath);
    expect(names).toEqual(expect.arrayContaining(['manifest.json', 'data_dictionary.csv']));
    const expected = await withDatabase(async (db) => {
      const { rows } = await db.query<{ metric_key: string; participant_id: number; n: string }>(
        `SELECT metric_key, participant_id, count(*) AS n FROM device_readings
         WHERE participant_id = ANY($1) AND metric_key = ANY($2) AND local_date BETWEEN $3 AND $4
         GROUP BY 1, 2`,
        [participantIds, METRICS, from, to],
      );
      return rows;
    });
    for (const metric of METRICS) {
      const csvName = metricCsv(names, metric);
      expect(csvName, `a CSV for ${metric} in ${names.join(', ')}`).toBeTruthy();
      const lines = csvLines(zipPath, csvName!);
      expect(lines[0]!.startsWith(DATA_CSV_HEADER), lines[0]).toBe(true);
      const rows = lines.slice(1);
      for (const [i, id] of participantIds.entries()) {
        const stored = Number(
          expected.find((e) => e.metric_key === metric && e.participant_id === id)?.n ?? 0,
        );
        expect(stored, `stored ${metric} readings of ${codes[i]}`).toBeGreaterThan(0);
        const mine = rows.filter((l) => l.startsWith(`${codes[i]},${metric},`));
        expect(mine.length, `${metric} rows of ${codes[i]}`).toBe(stored);
        for (const l of mine) {
          const day = l.split(',')[2]!;
          expect(day >= from && day <= to).toBe(true);
        }
      }
      expect(rows.length).toBe(
        expected.filter((e) => e.metric_key === metric).reduce((n, e) => n + Number(e.n), 0),
      );
    }
    const manifest = JSON.parse(zipText(zipPath, 'manifest.json'));
    expect(JSON.stringify(manifest)).toContain(FILE);

    // The requester is emailed a link to the page, never the data.
    const mail = await waitForMail(
      (m) =>
        m.includes('To: coordinator@demo.trialwear.local') && m.includes(FILE) && m.includes('/DataExport'),
      15_000,
    );
    expect(mail).not.toContain('participant_code');

    // 10. Delete, after the confirmation that the file is permanently removed.
    for (const [r, name] of [
      [row, FILE],
      [cancelRow, CANCEL_FILE],
    ] as const) {
      await r.getByRole('button', { name: `Delete ${name}.zip` }).click();
      const confirm = page.getByRole('dialog', { name: EXPORT_MESSAGES.deleteTitle });
      await shows(confirm.getByText(EXPORT_MESSAGES.deleteConfirm, { exact: false }));
      if (name === FILE) {
        await shot(page, 'delete-confirm');
        await accessible(page, 'the delete confirmation');
      }
      await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await gone(confirm);
      await gone(r);
    }
    await shows(page.getByText(EXPORT_MESSAGES.deleted, { exact: true }));
    expect((await page.request.get(href)).status()).toBe(404);
    await shot(page, 'deleted');

    // 11. A job held by Fitbit's hourly limit (issue #21; the worker sets this phase and time when the
    // device's budget is spent): the panel says what it waits for and until when, not 'Waiting in the queue'.
    const heldId = await withDatabase(async (db) => {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO export_jobs (team_id, user_id, trial_id, status, job_params, phase, not_before)
         VALUES ($1, $2, $3, 'pending', jsonb_set($4::jsonb, '{fileName}', '"held-by-limit"'),
                 'provider limit:Fitbit', date_trunc('hour', now()) + interval '1 hour')
         RETURNING id`,
        [first.team_id, first.user_id, first.trial_id, JSON.stringify(first.job_params)],
      );
      return rows[0]!.id;
    });
    try {
      await page.reload();
      const held = table.locator('tbody tr', { hasText: 'held-by-limit.zip' });
      await shows(held, 20_000);
      await shows(held.getByText(/^waiting for Fitbit's hourly limit \(resumes \d\d:00\)$/));
      await page
        .getByRole('region', { name: 'Export jobs' })
        .screenshot({ path: screenshotPath('data-export-waiting-for-limit-panel') });
    } finally {
      await withDatabase((db) => db.query('DELETE FROM export_jobs WHERE id = $1', [heldId]));
    }
    await context.close();
  }, 420_000);
});
