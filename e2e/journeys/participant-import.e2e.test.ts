/*
 * Bulk enrolment (issue #25 item 4) as a coordinator: a User on the trial
 * downloads the template, uploads a filled file, sees each refused row with
 * the add-participant call's message (a taken email, a bad age, an invalid
 * email, the team's limit), is told when a change since the preview stops
 * the apply (nothing created, the new preview shown), and creates the valid
 * rows, which the trial's table then lists.
 */
import fs from 'node:fs';
import { IMPORT_MESSAGES, PARTICIPANT_IMPORT_COLUMNS, PARTICIPANT_MESSAGES } from '@trialwear/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { cli } from '../support/cli.js';
import { withDatabase } from '../support/database.js';
import { accessible } from '../support/page-checks.js';
import { gone, shows } from '../support/wait.js';

const TEAM = 'E2E Import Team';
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Import participants' });
const preview = (page: Page) => dialog(page).getByRole('table', { name: 'Import preview' });

describe('bulk enrolment from a file', () => {
  let browser: Browser;
  let teamId: number;
  let trialId: number;
  beforeAll(async () => {
    browser = await launchBrowser();
    // At most 12 participants; one is already enrolled (its email is in the file again).
    teamId = (
      await cli(
        'create-team',
        '--name',
        TEAM,
        '--allowed-brands',
        'Fitbit',
        '--hidden-fields',
        'none',
        '--max-participants',
        '12',
      )
    ).id as number;
    const { id: userId } = await cli(
      'create-user',
      '--username',
      'importcoordinator',
      '--email',
      'importcoordinator@journeys.trialwear.local',
      '--password',
      DEMO_PASSWORD,
      '--first-name',
      'Import',
      '--last-name',
      'Coordinator',
      '--team',
      TEAM,
      '--role',
      'User',
      '--no-sfa',
    );
    trialId = await withDatabase(async (db) => {
      const trial = await db.query<{ id: number }>(
        `INSERT INTO trials (team_id, trial_number, trial_name, trial_code, owner_user_id)
         VALUES ($1, 'IMP-1', 'Import Study', 'IMP', $2) RETURNING id`,
        [teamId, userId],
      );
      const id = trial.rows[0]!.id;
      await db.query(
        `INSERT INTO participants (team_id, trial_id, email) VALUES ($1, $2, 'taken@import.example')`,
        [teamId, id],
      );
      return id;
    });
  });
  afterAll(() => browser.close());

  it('a coordinator previews a file, is told of a change, and creates the valid rows', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'importcoordinator');
    await page.getByRole('button', { name: 'Import Study' }).click();
    await page.waitForURL('**/TrialPage');
    await page.getByRole('button', { name: 'Import participants' }).click();
    await shows(dialog(page).getByText('No personal health information'));

    // The template: the header row.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog(page).getByRole('link', { name: 'CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('participants-template.csv');
    const template = fs.readFileSync((await download.path())!, 'utf8');
    expect(template).toBe(`${PARTICIPANT_IMPORT_COLUMNS.join(',')}\r\n`);

    // 15 rows: 3 refused for themselves, 12 well-formed of which 11 fit under the limit of 12.
    const lines = Array.from(
      { length: 12 },
      (_, i) => `${101 + i},p${101 + i}@import.example,female,${30 + i},`,
    );
    lines.splice(2, 0, '201,taken@import.example,male,40,');
    lines.splice(5, 0, '202,zero@import.example,other,0,');
    lines.splice(8, 0, '203,not-an-email,None,50,');
    const file = `${template}${lines.join('\r\n')}\r\n`;
    await page.locator('input[type="file"]').setInputFiles({
      name: 'participants.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(file),
    });
    await dialog(page).getByRole('button', { name: 'Preview' }).click();
    await shows(dialog(page).getByText('11 valid'));
    await shows(dialog(page).getByText('4 refused'));
    for (const message of [
      PARTICIPANT_MESSAGES.emailTaken,
      PARTICIPANT_MESSAGES.ageAboveZero,
      PARTICIPANT_MESSAGES.emailInvalid,
      PARTICIPANT_MESSAGES.limitReached,
    ])
      await shows(preview(page).getByText(message, { exact: true }));
    expect(await preview(page).locator('tbody tr').count()).toBe(4);
    await screenshot(page, 'participant-import-preview');
    await accessible(page, 'the import preview');
    await dialog(page).getByText('All rows').click();
    await shows(preview(page).getByText('IMP-101'));
    expect(await preview(page).locator('tbody tr').count()).toBe(15);
    await screenshot(page, 'participant-import-preview-all');

    // Meanwhile a participant is enrolled elsewhere: one place fewer, so the preview no longer holds.
    await withDatabase((db) =>
      db.query(
        `INSERT INTO participants (team_id, trial_id, email) VALUES ($1, $2, 'meanwhile@import.example')`,
        [teamId, trialId],
      ),
    );
    await dialog(page).getByRole('button', { name: 'Create 11 participants' }).click();
    await shows(dialog(page).getByText(IMPORT_MESSAGES.changed(5)));
    await shows(dialog(page).getByText('10 valid'));
    await screenshot(page, 'participant-import-changed');
    expect(await countParticipants(trialId)).toBe(2);

    await dialog(page).getByRole('button', { name: 'Create 10 participants' }).click();
    await shows(page.getByText(IMPORT_MESSAGES.created(10)));
    await gone(dialog(page));
    const table = page.getByRole('table', { name: 'Participants' });
    await shows(table.getByText('p101@import.example'));
    await shows(page.getByText(/^12 rows/));
    expect(await countParticipants(trialId)).toBe(12);
    await screenshot(page, 'participant-import-done');
    await context.close();
  });
});

const countParticipants = (trialId: number) =>
  withDatabase(async (db) =>
    Number(
      (await db.query('SELECT count(*) AS n FROM participants WHERE trial_id = $1', [trialId])).rows[0].n,
    ),
  );
