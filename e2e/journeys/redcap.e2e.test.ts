/*
 * REDCap (issue #25 item 3) as a trial's Admin, against the fake REDCap the
 * server mounts: Test connection tells a wrong token from the right one
 * (REDCap's own error, then the project found), a field mapping naming a
 * field the project lacks is refused with that field named, the settings
 * are saved; the enrolment preview shows each record's verdict with the
 * portal's messages and applying it enrols the participants; a push is in
 * the log; a push REDCap refuses raises a Study health alert for the trial's
 * REDCap participants.
 */
import { PARTICIPANT_MESSAGES, REDCAP_MESSAGES } from '@trialwear/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, DEMO_PASSWORD, launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { cli } from '../support/cli.js';
import { withDatabase } from '../support/database.js';
import { accessible } from '../support/page-checks.js';
import { shows } from '../support/wait.js';

const TEAM = 'E2E REDCap Team';
const TOKEN = 'C0FFEE0123456789ABCDEF0123456789';
const dialog = (page: Page) => page.getByRole('dialog', { name: 'REDCap' });

describe('REDCap settings and enrolment', () => {
  let browser: Browser;
  let trialId: number;
  let projectId: number;
  beforeAll(async () => {
    browser = await launchBrowser();
    const teamId = (
      await cli('create-team', '--name', TEAM, '--allowed-brands', 'Fitbit', '--hidden-fields', 'none')
    ).id as number;
    const { id: userId } = await cli(
      'create-user',
      '--username',
      'redcapadmin',
      '--email',
      'redcapadmin@journeys.trialwear.local',
      '--password',
      DEMO_PASSWORD,
      '--first-name',
      'Redcap',
      '--last-name',
      'Admin',
      '--team',
      TEAM,
      '--role',
      'Admin',
      '--no-sfa',
    );
    trialId = await withDatabase(async (db) => {
      const trial = await db.query<{ id: number }>(
        `INSERT INTO trials (team_id, trial_number, trial_name, trial_code, owner_user_id)
         VALUES ($1, 'RDC-1', 'REDCap Study', 'RDC', $2) RETURNING id`,
        [teamId, userId],
      );
      return trial.rows[0]!.id;
    });
    // The project, made in the fake REDCap through its control API (as a study team makes one in REDCap).
    const res = await fetch(`${baseUrl()}/sim/redcap/_control/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        project_title: 'Journey study',
        metadata: [
          { field_name: 'record_id', form_name: 'enrolment', field_type: 'text', field_label: 'Record ID' },
          { field_name: 'email', form_name: 'enrolment', field_type: 'text', field_label: 'Email' },
          {
            field_name: 'summary_date',
            form_name: 'wearable_daily',
            field_type: 'text',
            field_label: 'Date',
            text_validation_type_or_show_slider_number: 'date_ymd',
          },
          { field_name: 'steps', form_name: 'wearable_daily', field_type: 'text', field_label: 'Steps' },
        ],
        repeating: [{ form_name: 'wearable_daily' }],
        tokens: [{ token: TOKEN }],
        records: [
          { record_id: '101', email: 'r101@redcap.example' },
          { record_id: '102', email: 'r102@redcap.example' },
          { record_id: '103', email: '' },
        ],
      }),
    });
    expect(res.status).toBe(200);
    projectId = ((await res.json()) as { project_id: number }).project_id;
  });
  afterAll(() => browser.close());

  it('an Admin connects the trial, previews the records and enrols them, and pushes', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'redcapadmin');
    await page.getByRole('button', { name: 'REDCap Study' }).click();
    await page.waitForURL('**/TrialPage');
    await page.getByRole('button', { name: 'REDCap', exact: true }).click();
    const d = dialog(page);
    await shows(d.getByRole('tab', { name: 'Connection' }));

    const apiUrl = `${baseUrl()}/sim/redcap/api/`;
    await d.getByLabel('API URL').fill(apiUrl);
    await d.getByLabel('API token').fill('0123456789ABCDEF0123456789ABCDEF');
    await d.getByRole('button', { name: 'Test connection' }).click();
    await shows(d.getByText(REDCAP_MESSAGES.refused(403, 'You do not have permissions to use the API')));
    await d.getByLabel('API token').fill(TOKEN);
    await d.getByRole('button', { name: 'Test connection' }).click();
    await shows(d.getByText(REDCAP_MESSAGES.tested('Journey study', projectId, false)));

    await d.getByLabel('Email field (optional)').fill('email');
    await d.getByLabel('Repeating instrument').fill('wearable_daily');
    await d.getByLabel('Date field').fill('summary_date');
    await d.getByLabel('REDCap field for Steps (day total)').fill('stepz');
    await d.getByRole('button', { name: 'Save settings' }).click();
    await shows(d.getByRole('alert').getByText(REDCAP_MESSAGES.unknownField('stepz')));
    await screenshot(page, 'redcap-settings-refused');
    expect(await settingsRows(trialId)).toBe(0);
    await d.getByLabel('REDCap field for Steps (day total)').fill('steps');
    await d.getByRole('button', { name: 'Save settings' }).click();
    await shows(page.getByText('REDCap settings saved.'));
    expect(await settingsRows(trialId)).toBe(1);
    await shows(d.getByText('Stored (never shown). Leave empty to keep it.'));
    await accessible(page, 'the REDCap settings');
    await screenshot(page, 'redcap-settings-saved');

    await d.getByRole('tab', { name: 'Enrol from REDCap' }).click();
    await d.getByRole('button', { name: 'Preview records' }).click();
    const preview = d.getByRole('table', { name: 'Enrolment preview' });
    await shows(d.getByText('2 to create'));
    await shows(d.getByText('1 refused'));
    await shows(preview.getByText('RDC-101'));
    await shows(preview.getByText(PARTICIPANT_MESSAGES.emailRequired, { exact: true }));
    await accessible(page, 'the enrolment preview');
    await screenshot(page, 'redcap-enrol-preview');
    await d.getByRole('button', { name: 'Apply: create 2, update 0' }).click();
    await shows(page.getByText(REDCAP_MESSAGES.enrolled(2, 0)));
    await page.keyboard.press('Escape');
    await shows(page.getByRole('table', { name: 'Participants' }).getByText('r102@redcap.example'));

    // RDC-101's steps of the two days before today (UTC), as a sync stores them.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const before = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    await withDatabase((db) =>
      db.query(
        `INSERT INTO device_readings (participant_id, team_id, metric_key, measured_at, local_date, value)
         SELECT p.id, p.team_id, 'steps', d::timestamptz + interval '12 hours', d, v
         FROM participants p, (VALUES ($2::date, 4321), ($3::date, 8765)) AS x(d, v)
         WHERE p.trial_id = $1 AND p.participant_code = 'RDC-101'`,
        [trialId, before, yesterday],
      ),
    );
    await page.getByRole('button', { name: 'REDCap', exact: true }).click();
    await dialog(page).getByRole('tab', { name: 'Push daily summaries' }).click();
    await dialog(page).getByRole('button', { name: 'Push now' }).click();
    await shows(page.getByText(REDCAP_MESSAGES.pushed(1, 2)));
    const records = (await (
      await fetch(`${baseUrl()}/sim/redcap/_control/projects/${projectId}/records`)
    ).json()) as Record<string, string>[];
    expect(
      records
        .filter((r) => r.redcap_repeat_instrument === 'wearable_daily')
        .map((r) => [r.record_id, r.redcap_repeat_instance, r.summary_date, r.steps]),
    ).toEqual([
      ['101', '1', before, '4321'],
      ['101', '2', yesterday, '8765'],
    ]);
    await shows(dialog(page).getByRole('table', { name: 'REDCap push log' }).getByText('done'));
    await screenshot(page, 'redcap-push-log');

    // REDCap refuses the next calls (as with a revoked token): the push fails, and Study health
    // raises an alert for the trial's REDCap participants, until a push goes through again.
    await fetch(`${baseUrl()}/sim/redcap/_control/fail-next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 20, status: 403 }),
    });
    await dialog(page).getByRole('button', { name: 'Push now' }).click();
    await shows(dialog(page).getByRole('table', { name: 'REDCap push log' }).getByText('failed'));
    await page.keyboard.press('Escape');
    await page.goto(`/StudyHealth?trialId=${trialId}`);
    const alerts = page.getByRole('table', { name: 'Alerts' });
    await shows(alerts.getByRole('row', { name: /RDC-101.*REDCap push failed.*Open/ }));
    await shows(alerts.getByRole('row', { name: /RDC-102.*REDCap push failed.*Open/ }));
    await accessible(page, 'Study health with REDCap push alerts');
    await screenshot(page, 'redcap-push-alert');
    await context.close();
  });
});

const settingsRows = (trialId: number) =>
  withDatabase(async (db) =>
    Number(
      (await db.query('SELECT count(*) AS n FROM redcap_settings WHERE trial_id = $1', [trialId])).rows[0].n,
    ),
  );
