/*
 * Sync health on the trial page (issue #11 item 5), against the built
 * server and its mounted simulator: a participant links a Fitbit, the team
 * stores steps, one device-sync job runs in the server's own workers, and
 * the trial page's 'Data Sync' column shows the participant syncing (status
 * text beside the coloured dot) while unlinked participants show 'No device';
 * Manage Participant shows the same health with its figures. The journey
 * has its own team, Admin, trial and participants (admin CLI and SQL): the
 * demo team's metric settings, which other journeys count, are not touched.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { journeyTeam } from '../support/cli.js';
import { consentFromEmail, openManageParticipant } from '../support/consent.js';
import { enqueueSync, withDatabase } from '../support/database.js';
import { shows } from '../support/wait.js';

const TEAM = 'E2E Sync Team';
const ADMIN = 'syncadmin';
const TRIAL = 'E2E Sync Study';
const CODE = 'SYN-001';
const UNLINKED = 'SYN-002';
async function shot(page: Page, name: string) {
  await screenshot(page, name);
}

describe('sync health on the trial page', () => {
  let browser: Browser;
  let staff: Awaited<ReturnType<typeof newPage>>;

  beforeAll(async () => {
    browser = await launchBrowser();
    const teamId = await journeyTeam(TEAM, { hiddenFields: 'none', admin: ADMIN });
    await withDatabase(async (db) => {
      const trialId = (
        await db.query(
          `INSERT INTO trials (team_id, trial_number, trial_name, trial_code)
           VALUES ($1, 'S1', $2, 'SYN') RETURNING id`,
          [teamId, TRIAL],
        )
      ).rows[0].id;
      for (const suffix of ['001', '002'])
        await db.query(
          `INSERT INTO participants (team_id, trial_id, email, participant_code, participant_code_suffix)
           VALUES ($1, $2, $3, $4, $5)`,
          [teamId, trialId, `syn-${suffix}@participants.trialwear.local`, `SYN-${suffix}`, suffix],
        );
      // The team stores steps of its Fitbit trackers (what the metrics manager and retention page set).
      await db.query(
        `INSERT INTO device_metric_settings (team_id, team_supported_device_id, metric_key, metric_name, metric_units, is_enabled)
         SELECT s.team_id, s.id, 'steps', 'Steps', 'steps', true
         FROM team_supported_devices s JOIN global_device_catalog g ON g.id = s.global_device_catalog_id
         WHERE s.team_id = $1 AND g.manufacturer = 'Fitbit' AND g.device_type = 'fitness_tracker'`,
        [teamId],
      );
      await db.query(
        `INSERT INTO team_storage_settings (team_id, device_type, metric_key, metric_name, units)
         VALUES ($1, 'fitness_tracker', 'steps', 'Steps', 'steps')`,
        [teamId],
      );
    });
    staff = await newPage(browser);
    await signIn(staff.page, ADMIN);
    await openManageParticipant(staff.page, CODE, TRIAL);
    await staff.page.getByRole('button', { name: 'Request Authorization for Fitbit' }).click();
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
    await staff?.context.close();
    await browser?.close();
  });

  it("the trial page's Data Sync column: the synced participant's status, 'No device' for the others", async () => {
    const deviceId = await withDatabase(async (db) => {
      const { rows } = await db.query<{ id: number }>(
        `SELECT d.id FROM participant_devices d JOIN participants p ON p.id = d.participant_id
         JOIN teams t ON t.id = p.team_id
         WHERE t.team_name = $1 AND p.participant_code = $2 AND d.provider = 'fitbit'`,
        [TEAM, CODE],
      );
      return rows[0]!.id;
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
        // 30 days of steps: the only metric the journey's team stores.
        const steps = await withDatabase(async (db) => {
          const { rows } = await db.query<{ n: string }>(
            "SELECT count(*) AS n FROM device_readings WHERE participant_device_id = $1 AND metric_key = 'steps'",
            [deviceId],
          );
          return Number(rows[0]!.n);
        });
        expect(steps).toBe(30);
        expect(done.rows_stored).toBe(30);
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
    const other = table.locator('tbody tr', { hasText: UNLINKED });
    expect(await other.locator('[data-sync-status]').textContent()).toContain('No device');
    await shot(page, 'trial-page-data-sync');

    await row.getByRole('button', { name: 'Manage Participant' }).click();
    await page.waitForURL('**/Participant');
    const card = page.getByLabel('Data sync');
    await shows(card.getByText(`Readings stored: ${Number(stored).toLocaleString('en-US')}`));
    await shows(card.getByText(/^Days with data \(last 7\): \d of 7$/));
    await shot(page, 'manage-participant-data-sync');

    // Stopped by the provider's hourly limit (issue #21): a wait until the next hour, not 'Sync error'.
    // Written as the sync writes it (the limit's end is also when the next sync may run), once no
    // sync of the device is queued or running: a sync finishing after the write (the one the consent
    // started, say) recorded its success and cleared the wait before the page looked.
    const deadlineIdle = Date.now() + 60_000;
    for (;;) {
      const busy = await withDatabase(async (db) => {
        const { rows } = await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM pgboss.job
           WHERE name = 'device-sync' AND singleton_key = $1 AND state IN ('created', 'retry', 'active')`,
          [`device-${deviceId}`],
        );
        return Number(rows[0]!.n);
      });
      if (busy === 0) break;
      if (Date.now() > deadlineIdle)
        throw new Error(`a sync of device ${deviceId} is still queued or running`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const before = await withDatabase(async (db) => {
      const { rows } = await db.query<{ next_allowed_at: Date | null }>(
        `UPDATE device_sync_state s
            SET limited_until = date_trunc('hour', now()) + interval '1 hour',
                next_allowed_at = date_trunc('hour', now()) + interval '1 hour'
           FROM device_sync_state old
          WHERE s.participant_device_id = $1 AND old.participant_device_id = s.participant_device_id
         RETURNING old.next_allowed_at`,
        [deviceId],
      );
      return rows[0]!.next_allowed_at;
    });
    try {
      await page.goBack();
      await page.waitForURL('**/TrialPage');
      await page.reload();
      const waiting = table.locator('tbody tr', { hasText: CODE }).locator('[data-sync-status]');
      await shows(waiting);
      await shows(table.locator('[data-sync-status="waiting"]'));
      expect(await waiting.textContent()).toMatch(/^waiting for the provider's limit until \d\d:00$/);
      await shot(page, 'trial-page-sync-waiting');
    } finally {
      await withDatabase((db) =>
        db.query(
          'UPDATE device_sync_state SET limited_until = NULL, next_allowed_at = $2 WHERE participant_device_id = $1',
          [deviceId, before],
        ),
      );
    }
  }, 200_000);
});
