/*
 * Sync health on the trial page (issue #11 item 5), against the built
 * server and its mounted simulator: a participant links a Fitbit, the team
 * stores steps, one device-sync job runs in the server's own workers, and
 * the trial page's 'Data Sync' column shows the participant syncing (status
 * text beside the coloured dot) while unlinked participants show 'No device';
 * Manage Participant shows the same health with its figures.
 */
import fs from 'node:fs';
import path from 'node:path';
import PgBoss from 'pg-boss';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDir, launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { consentFromEmail, openManageParticipant } from '../support/consent.js';
import { withDatabase } from '../support/database.js';
import { shows } from '../support/wait.js';

const TRIAL = 'Sleep and Activity Study';
const CODE = 'SLP-003';
const SHOTS = '/tmp/shots-wt-sync';

async function shot(page: Page, name: string) {
  await screenshot(page, name);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Enqueue one device-sync job as the scheduler does (same queue, same singleton key). */
async function enqueueSync(deviceId: number) {
  const dir = dataDir();
  const password = fs.readFileSync(path.join(dir, 'pg-password'), 'utf8').trim();
  const port = Number(fs.readFileSync(path.join(dir, 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const boss = new PgBoss({ host: '127.0.0.1', port, user: 'trialwear', password, database: 'trialwear' });
  boss.on('error', () => {});
  await boss.start();
  try {
    await boss.send('device-sync', { deviceId }, { singletonKey: `device-${deviceId}` });
  } finally {
    await boss.stop({ graceful: false });
  }
}

describe('sync health on the trial page', () => {
  let browser: Browser;
  let restore: (() => Promise<unknown>) | undefined;
  let staff: Awaited<ReturnType<typeof newPage>>;

  beforeAll(async () => {
    browser = await launchBrowser();
    staff = await newPage(browser);
    await signIn(staff.page, 'admin');
    await openManageParticipant(staff.page, CODE, TRIAL);
    await staff.page.getByRole('button', { name: 'Request Fitbit Authorization' }).click();
    await shows(staff.page.getByText('The consent link was emailed to the participant.'));
    const participant = await consentFromEmail(
      browser,
      `${CODE.toLowerCase()}@participants.trialwear.local`,
      'Allow',
    );
    await shows(
      participant.page.getByText('Your Fitbit is now connected to your study. You may close this page.'),
    );
    await participant.context.close();
  });
  afterAll(async () => {
    await restore?.();
    await staff?.context.close();
    await browser?.close();
  });

  it("the trial page's Data Sync column: the synced participant's status, 'No device' for the others", async () => {
    // The team stores steps of its Fitbit trackers (what the metrics manager and retention page set).
    const deviceId = await withDatabase(async (db) => {
      const { rows } = await db.query<{ id: number; team_id: number }>(
        `SELECT d.id, d.team_id FROM participant_devices d JOIN participants p ON p.id = d.participant_id
         WHERE p.participant_code = $1 AND d.provider = 'fitbit'`,
        [CODE],
      );
      const { id, team_id } = rows[0]!;
      // What the team had before, so the settings are put back afterwards (other journeys, e.g.
      // admin-metrics, count the demo team's settings).
      const before = await db.query<{ id: number; is_enabled: boolean }>(
        `SELECT m.id, m.is_enabled FROM device_metric_settings m
         JOIN team_supported_devices s ON s.id = m.team_supported_device_id
         JOIN global_device_catalog g ON g.id = s.global_device_catalog_id
         WHERE m.team_id = $1 AND m.metric_key = 'steps' AND g.manufacturer = 'Fitbit' AND g.device_type = 'fitness_tracker'`,
        [team_id],
      );
      const storedBefore = await db.query(
        `SELECT 1 FROM team_storage_settings WHERE team_id = $1 AND device_type = 'fitness_tracker' AND metric_key = 'steps'`,
        [team_id],
      );
      restore = () =>
        withDatabase(async (db2) => {
          await db2.query(
            `DELETE FROM device_metric_settings WHERE team_id = $1 AND metric_key = 'steps' AND NOT (id = ANY($2::int[]))`,
            [team_id, before.rows.map((r) => r.id)],
          );
          for (const r of before.rows)
            await db2.query('UPDATE device_metric_settings SET is_enabled = $2 WHERE id = $1', [
              r.id,
              r.is_enabled,
            ]);
          if (storedBefore.rowCount === 0)
            await db2.query(
              `DELETE FROM team_storage_settings WHERE team_id = $1 AND device_type = 'fitness_tracker' AND metric_key = 'steps'`,
              [team_id],
            );
        });
      await db.query(
        `INSERT INTO device_metric_settings (team_id, team_supported_device_id, metric_key, metric_name, metric_units, is_enabled)
         SELECT s.team_id, s.id, 'steps', 'Steps', 'steps', true
         FROM team_supported_devices s JOIN global_device_catalog g ON g.id = s.global_device_catalog_id
         WHERE s.team_id = $1 AND g.manufacturer = 'Fitbit' AND g.device_type = 'fitness_tracker'
         ON CONFLICT (team_supported_device_id, metric_key) DO UPDATE SET is_enabled = true`,
        [team_id],
      );
      await db.query(
        `INSERT INTO team_storage_settings (team_id, device_type, metric_key, metric_name, units)
         VALUES ($1, 'fitness_tracker', 'steps', 'Steps', 'steps') ON CONFLICT DO NOTHING`,
        [team_id],
      );
      return id;
    });
    await enqueueSync(deviceId);
    // In a full run other journeys' devices are syncing too (the 15-minute schedule): allow for the queue.
    let stored = 0;
    const deadline = Date.now() + 150_000;
    for (;;) {
      const done = await withDatabase(async (db) => {
        const { rows } = await db.query(
          'SELECT last_success_at, last_error, rows_stored FROM device_sync_state WHERE participant_device_id = $1',
          [deviceId],
        );
        return rows[0] ?? null;
      });
      if (done?.last_success_at) {
        expect(done.last_error).toBeNull();
        // 30 days of steps; other journeys may have enabled more of the demo team's metrics, so the
        // total stored is read back rather than assumed.
        const steps = await withDatabase(async (db) => {
          const { rows } = await db.query<{ n: string }>(
            "SELECT count(*) AS n FROM device_readings WHERE participant_device_id = $1 AND metric_key = 'steps'",
            [deviceId],
          );
          return Number(rows[0]!.n);
        });
        expect(steps).toBe(30);
        expect(done.rows_stored).toBeGreaterThanOrEqual(30);
        stored = done.rows_stored;
        break;
      }
      if (Date.now() > deadline) throw new Error(`the sync did not run: ${JSON.stringify(done)}`);
      await new Promise((r) => setTimeout(r, 250));
    }

    const { page } = staff;
    await page.goto('/');
    await page.getByRole('button', { name: TRIAL }).click();
    await page.waitForURL('**/TrialPage');
    const table = page.getByRole('table', { name: 'Participants' });
    await shows(table.getByRole('columnheader', { name: /Data Sync/ }));
    const row = table.locator('tbody tr', { hasText: CODE });
    const status = row.locator('[data-sync-status]');
    await shows(status);
    expect(await status.getAttribute('data-sync-status')).toMatch(/^(ok|stale)$/);
    expect(await status.textContent()).toMatch(/Syncing|No data for 3 days/);
    await shows(row.getByText(/^\d\/7 days$/));
    const other = table.locator('tbody tr', { hasText: 'SLP-004' });
    expect(await other.locator('[data-sync-status]').textContent()).toContain('No device');
    await shot(page, 'trial-page-data-sync');

    await row.getByRole('button', { name: 'Manage Participant' }).click();
    await page.waitForURL('**/Participant');
    const card = page.getByLabel('Data sync');
    await shows(card.getByText(`Readings stored: ${Number(stored).toLocaleString('en-US')}`));
    await shows(card.getByText(/^Days with data \(last 7\): \d of 7$/));
    await shot(page, 'manage-participant-data-sync');
  }, 200_000);
});
