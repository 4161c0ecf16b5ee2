/*
 * Stored metrics administration (issue #11): a Sys_Admin ticks the tracker's
 * metrics in (mode A) and enables them, edits the settings of a device
 * without catalog metrics (mode B), an Admin picks what the team stores
 * (Data Storage & Retention Settings), and a Sys_Admin browses the database
 * info tables page by page with the filter. Each test works on teams of its
 * own (admin CLI and SQL), never on the demo team's settings that other
 * journeys (device sync, data pages) use, so the order of tests and files
 * does not matter.
 */
import {
  DATA_RETENTION_MESSAGES,
  DB_INFO_TITLE,
  DEVICE_METRICS_MESSAGES,
  retentionText,
  SYS_ADMIN_SCOPE_NOTES,
  TIMINGS,
} from '@trialwear/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { journeyTeam } from '../support/cli.js';
import { withDatabase } from '../support/database.js';
import { gone, shows } from '../support/wait.js';

const E2E_TEAM = 'E2E Paging Team';
/** Mode A's team: no metric settings until the test makes them. */
const MANAGER_TEAM = 'E2E Metrics Manager Team';
/** The retention page's team and its Admin: every tracker metric but Floors enabled by SQL in beforeAll. */
const RETENTION_TEAM = 'E2E Retention Team';
const RETENTION_ADMIN = 'retentionadmin';
const OXIMETER = 'E2E Pulse Oximeter';
/** The catalog's fitness_tracker metrics (steps_intraday and heart_rate_1sec joined them, migration 021; hrv_intraday, 023). */
const TRACKER_METRICS = 20;

async function pick(page: Page, label: string, option: RegExp | string) {
  await page.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

describe('stored metrics administration', () => {
  let browser: Browser;
  let managerTeamId: number;
  let e2eTeamId: number;
  beforeAll(async () => {
    browser = await launchBrowser();
    managerTeamId = await journeyTeam(MANAGER_TEAM);
    const retentionTeamId = await journeyTeam(RETENTION_TEAM, { retentionDays: 365, admin: RETENTION_ADMIN });
    await withDatabase(async (db) => {
      // What a Sys_Admin's mode A and Enable make: every tracker metric of the catalog but Floors.
      await db.query(
        `INSERT INTO device_metric_settings (team_id, team_supported_device_id, metric_key, metric_name, metric_units, is_enabled)
         SELECT s.team_id, s.id, c.metric_key, c.metric_name, c.units, true
         FROM team_supported_devices s
         JOIN global_device_catalog g ON g.id = s.global_device_catalog_id
         JOIN metric_catalog c ON c.device_type = g.device_type
         WHERE s.team_id = $1 AND g.device_name = 'Fitbit Sense' AND c.metric_key <> 'floors'`,
        [retentionTeamId],
      );
      // A second team (hidden participant fields unknown: emails hidden) with 60 participants, and a
      // catalog device of a type the metric catalog does not know, supported by that team.
      e2eTeamId = (await db.query(`INSERT INTO teams (team_name) VALUES ($1) RETURNING id`, [E2E_TEAM]))
        .rows[0].id;
      const trialId = (
        await db.query(
          `INSERT INTO trials (team_id, trial_number, trial_name, trial_code)
           VALUES ($1, 'E1', 'E2E Paging Trial', 'EPT') RETURNING id`,
          [e2eTeamId],
        )
      ).rows[0].id;
      await db.query(
        `INSERT INTO participants (team_id, trial_id, email)
         SELECT $1, $2, 'hidden-' || g || '@e2e.example' FROM generate_series(1, 60) g`,
        [e2eTeamId, trialId],
      );
      // A team that shows emails, with one participant.
      const openTeam = (
        await db.query(
          `INSERT INTO teams (team_name, hidden_participant_fields) VALUES ('E2E Open Team', '{}') RETURNING id`,
        )
      ).rows[0].id;
      const openTrial = (
        await db.query(
          `INSERT INTO trials (team_id, trial_number, trial_name, trial_code)
           VALUES ($1, 'O1', 'E2E Open Trial', 'EOT') RETURNING id`,
          [openTeam],
        )
      ).rows[0].id;
      await db.query(
        `INSERT INTO participants (team_id, trial_id, email) VALUES ($1, $2, 'visible-1@e2e.example')`,
        [openTeam, openTrial],
      );
      const deviceId = (
        await db.query(
          `INSERT INTO global_device_catalog (manufacturer, device_type, device_name)
           VALUES ('Omron', 'pulse_oximeter', $1) RETURNING id`,
          [OXIMETER],
        )
      ).rows[0].id;
      await db.query(
        'INSERT INTO team_supported_devices (team_id, global_device_catalog_id) VALUES ($1, $2)',
        [e2eTeamId, deviceId],
      );
    });
  });
  afterAll(() => browser.close());

  it('mode A: select-all with its indeterminate state, save counts, then enabling in the settings table', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'sysadmin');
    await page.goto('/DeviceMetricsManager');
    await shows(page.getByRole('heading', { name: 'Device Metrics Manager' }));
    await shows(page.getByText(SYS_ADMIN_SCOPE_NOTES.deviceMetrics));
    await shows(
      page.getByText('Teams cannot retain data for metrics that a system administrator has not enabled.'),
    );
    expect(await page.getByRole('textbox', { name: 'Device', exact: true }).isDisabled()).toBe(true);
    await pick(page, 'Team', `${MANAGER_TEAM} (id ${managerTeamId})`);
    await pick(page, 'Device', 'Fitbit Sense (Fitness tracker)');

    const table = page.getByRole('table', { name: 'Available metrics' });
    await shows(table.getByText('Resting heart rate'));
    expect(await table.locator('tbody tr').count()).toBe(TRACKER_METRICS);
    const bar = page.getByLabel('Save bar');
    await shows(bar.getByText('0 selected · 0 new · 0 removed'));
    const selectAll = page.getByRole('checkbox', { name: 'Select all metrics' });
    await selectAll.check();
    await shows(bar.getByText(`${TRACKER_METRICS} selected · ${TRACKER_METRICS} new · 0 removed`));
    await page.getByRole('checkbox', { name: 'Select Floors' }).uncheck();
    await shows(bar.getByText(`${TRACKER_METRICS - 1} selected · ${TRACKER_METRICS - 1} new · 0 removed`));
    // Some but not all ticked: the select-all box is indeterminate.
    expect(await selectAll.getAttribute('data-indeterminate')).toBe('true');
    await screenshot(page, 'metrics-manager-mode-a');
    await bar.getByRole('button', { name: 'Save' }).click();
    await shows(bar.getByText(`${TRACKER_METRICS - 1} selected · 0 new · 0 removed`));
    // Saving says so, and where the new (disabled) metrics get enabled.
    await shows(bar.getByRole('status').getByText(/^Changes saved\. New metrics are added disabled/));
    // Newly ticked metrics are stored disabled.
    expect(await table.getByText('Yes', { exact: true }).count()).toBe(0);

    // Enabling them: the settings table of the same device, select all, Enable.
    await page.getByText('Enable and retention', { exact: true }).click();
    const settings = page.getByRole('table', { name: 'Metric settings' });
    await shows(settings.getByText('Resting heart rate'));
    // Which retention applies, said beside the metric's retention days.
    await shows(page.getByText(DATA_RETENTION_MESSAGES.retentionRule));
    await page.getByRole('checkbox', { name: 'Select all settings' }).check();
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await shows(page.getByText(`0 selected · ${TRACKER_METRICS - 1} settings`));
    expect(await settings.getByText('Yes', { exact: true }).count()).toBe(TRACKER_METRICS - 1);
    await screenshot(page, 'metrics-manager-enabled');
    await context.close();
  });

  it('mode B: add rows (NEW, validation), edit, bulk disable, delete with confirmation', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'sysadmin');
    await page.goto('/DeviceMetricsManager');
    await pick(page, 'Team', `${E2E_TEAM} (id ${e2eTeamId})`);
    await pick(page, 'Device', `${OXIMETER} (Pulse oximeter)`);
    await shows(page.getByText('No metric settings yet: add one.'));
    expect(await page.getByText('Enable and retention', { exact: true }).count()).toBe(0);

    // Bulk actions need a selection.
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await shows(page.getByText(DEVICE_METRICS_MESSAGES.selectToModify));

    // A new row: NEW marker, validation, then the grouped searchable dropdown.
    await page.getByRole('button', { name: 'Add metric' }).click();
    await shows(page.getByText('NEW', { exact: true }));
    await page.getByLabel('Retention days').fill('0');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await shows(page.getByText(DEVICE_METRICS_MESSAGES.fixErrors));
    await shows(page.getByText(DEVICE_METRICS_MESSAGES.nameRequired));
    await shows(page.getByText(DEVICE_METRICS_MESSAGES.retentionMin));
    const picker = page.getByRole('textbox', { name: 'Metric name' });
    await picker.click();
    await picker.fill('Pulse');
    // The group is the device type in words (it was the raw key, blood_pressure); the list opens
    // under its input.
    await shows(page.getByText('Blood pressure monitor', { exact: true }));
    const inputBox = (await picker.boundingBox())!;
    const listBox = (await page.getByRole('listbox').boundingBox())!;
    expect(listBox.y).toBeGreaterThanOrEqual(inputBox.y + inputBox.height - 1);
    await screenshot(page, 'metrics-manager-mode-b-picker');
    await page.getByRole('option', { name: 'Pulse', exact: true }).click();
    await page.getByLabel('Retention days').fill('60');
    await screenshot(page, 'metrics-manager-mode-b-new-row');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const rows = page.getByRole('table', { name: 'Metric settings' }).getByTestId('setting-row');
    await shows(rows.filter({ hasText: 'Pulse' }).getByText('60'));

    // A second row; the dropdown no longer offers Pulse.
    await page.getByRole('button', { name: 'Add metric' }).click();
    await picker.click();
    await picker.fill('Pulse');
    await shows(page.getByText('No metric left to add'));
    await picker.fill('SpO2');
    await page.getByRole('option', { name: 'SpO2', exact: true }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await shows(rows.filter({ hasText: 'SpO2' }));
    expect(await rows.count()).toBe(2);

    // Edit: Pulse's retention to 90.
    await page.getByRole('button', { name: 'Edit Pulse' }).click();
    await page.getByLabel('Retention days').fill('90');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await shows(rows.filter({ hasText: 'Pulse' }).getByText('90'));

    // Bulk disable both.
    expect(await rows.getByText('Yes', { exact: true }).count()).toBe(2);
    await page.getByRole('checkbox', { name: 'Select all settings' }).check();
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await shows(page.getByText('0 selected · 2 settings'));
    expect(await rows.getByText('No', { exact: true }).count()).toBe(2);

    // Single delete, confirmed.
    await page.getByRole('button', { name: 'Delete SpO2' }).click();
    const single = page.getByRole('dialog', { name: 'Delete Metric Setting' });
    await shows(single.getByText('cannot be undone'));
    await single.getByRole('button', { name: 'Delete' }).click();
    await gone(rows.filter({ hasText: 'SpO2' }));
    expect(await rows.count()).toBe(1);

    // Bulk delete, confirmed.
    await page.getByRole('checkbox', { name: 'Select Pulse' }).check();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const multiple = page.getByRole('dialog', { name: 'Delete Multiple Metric Settings' });
    await shows(multiple.getByText('cannot be undone'));
    await screenshot(page, 'metrics-manager-mode-b-delete');
    await multiple.getByRole('button', { name: 'Delete' }).click();
    await shows(page.getByText('No metric settings yet: add one.'));
    await context.close();
  });

  it('retention page: the team’s enabled metrics, enable, disable, discard and save with “Changes saved”', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, RETENTION_ADMIN);
    await page.goto('/TeamDataRetention');
    await shows(page.getByRole('heading', { name: DATA_RETENTION_MESSAGES.title }));
    await shows(page.getByText(retentionText(365)));
    await pick(page, 'Device', 'Fitbit Sense (Fitness tracker)');
    const enabled = TRACKER_METRICS - 1;
    await shows(page.getByText(`0 of ${enabled} metrics enabled`));
    // Disabling stops the sync only: the retention purge removes stored readings later (issue #11 item 6).
    await shows(page.getByText(DATA_RETENTION_MESSAGES.disableNote));
    // Floors was never enabled by the Sys_Admin: not offered.
    const table = page.getByRole('table', { name: 'Metrics' });
    await shows(table.getByText('Resting heart rate'));
    expect(await table.getByText('Floors').count()).toBe(0);

    // The team's figure and the metrics' own: which applies, and each metric's effective days.
    await shows(page.getByText(DATA_RETENTION_MESSAGES.retentionRule, { exact: false }));
    await shows(table.getByRole('columnheader', { name: DATA_RETENTION_MESSAGES.keptFor }));
    // The settings' 30 days (the column's default) under the team's 365.
    await shows(table.getByRole('row', { name: /Resting heart rate/ }).getByText('30 days', { exact: true }));
    await page.getByRole('checkbox', { name: 'Select all metrics' }).check();
    const bar = page.getByLabel('Unsaved changes');
    await shows(bar.getByText(`${enabled} to enable, 0 to disable`));
    // The count is of what is saved: the unsaved ticks are the bar's.
    await shows(page.getByText(`0 of ${enabled} metrics enabled`));
    await bar.getByRole('button', { name: DATA_RETENTION_MESSAGES.discard }).click();
    await shows(page.getByText(`0 of ${enabled} metrics enabled`));

    await page.getByRole('checkbox', { name: 'Select all metrics' }).check();
    await page.getByRole('checkbox', { name: 'Store Steps' }).uncheck();
    await shows(bar.getByText(`${enabled - 1} to enable, 0 to disable`));
    await bar.getByRole('button', { name: DATA_RETENTION_MESSAGES.save }).click();
    const saved = page.getByText(DATA_RETENTION_MESSAGES.saved, { exact: true });
    await shows(saved);
    await shows(page.getByText(`${enabled - 1} of ${enabled} metrics enabled`));
    await screenshot(page, 'team-data-retention');
    // 'Changes saved' goes after 3 s.
    await gone(saved, TIMINGS.changesSavedMs + 2_000);

    // Disable one and enable another, saved; the page reloaded keeps them.
    await page.getByRole('checkbox', { name: 'Store Distance' }).uncheck();
    await page.getByRole('checkbox', { name: 'Store Steps' }).check();
    await shows(bar.getByText('1 to enable, 1 to disable'));
    await bar.getByRole('button', { name: DATA_RETENTION_MESSAGES.save }).click();
    await shows(saved);
    await page.reload();
    await pick(page, 'Device', 'Fitbit Sense (Fitness tracker)');
    await shows(page.getByText(`${enabled - 1} of ${enabled} metrics enabled`));
    expect(await page.getByRole('checkbox', { name: 'Store Distance' }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'Store Steps' }).isChecked()).toBe(true);
    await context.close();
  });

  it('database info: ten tables, paged at 50 by the server, filtered, hidden emails left out', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'sysadmin');
    await page.goto('/DbInfoPage');
    await shows(page.getByRole('heading', { name: DB_INFO_TITLE }));
    // Sys_Admin is platform-wide: the page says so (SECURITY.md).
    await shows(page.getByText(SYS_ADMIN_SCOPE_NOTES.dbInfo));
    expect(await page.getByRole('tab').count()).toBe(10);
    await shows(page.getByRole('table', { name: 'Team Table' }).getByText(E2E_TEAM));

    // Other journeys add participants too: the total is whatever the database holds now (at least 61).
    const total = await withDatabase(
      async (db) => (await db.query('SELECT count(*)::int AS n FROM participants')).rows[0].n as number,
    );
    expect(total).toBeGreaterThan(60);
    await page.getByRole('tab', { name: 'Participant Table' }).click();
    const table = page.getByRole('table', { name: 'Participant Table' });
    await shows(page.getByText(`${total} rows`, { exact: true }));
    expect(await table.locator('tbody tr').count()).toBe(50);
    await page.getByRole('button', { name: '2', exact: true }).click();
    const second = Math.min(total - 50, 50);
    // The first page stays shown until the second arrives: wait for its extra rows to go.
    await gone(table.locator('tbody tr').nth(second));
    expect(await table.locator('tbody tr').count()).toBe(second);

    await page.getByLabel('Search').fill('E2E Paging Trial');
    await shows(page.getByText('60 rows', { exact: true }));
    expect(await table.locator('tbody tr').count()).toBe(50);
    // The E2E team hides emails: none is shown, and none can be found.
    expect(await table.getByText('@e2e.example').count()).toBe(0);
    await page.getByLabel('Search').fill('hidden-1');
    await shows(page.getByText('0 rows', { exact: true }));
    await page.getByLabel('Search').fill('visible-1@e2e');
    await shows(page.getByText('1 row', { exact: true }));
    await shows(table.getByText('visible-1@e2e.example'));
    await screenshot(page, 'db-info');
    await context.close();

    const admin = await newPage(browser);
    await signIn(admin.page, 'admin');
    await admin.page.goto('/DbInfoPage');
    await admin.page.waitForURL('**/not-authorized');
    await admin.context.close();
  });
});
