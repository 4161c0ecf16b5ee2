import fs from 'node:fs';
import { PARTICIPANT_MESSAGES } from '@trialwear/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { journeyTeam } from '../support/cli.js';
import { withDatabase } from '../support/database.js';
import { gone, shows } from '../support/wait.js';

const participantsTable = (page: Page) => page.getByRole('table', { name: 'Participants' });
const rowsOf = (page: Page) => participantsTable(page).locator('tbody tr');
/** The table's footer: "N rows · M selected (max 10)". */
const footer = (page: Page) => page.getByText(/\d+ rows? · \d+ selected/);

async function addParticipant(
  page: Page,
  p: { email: string; age?: string; gender?: string; code?: string; notes?: string },
) {
  await page.getByRole('button', { name: 'Add Participant' }).click();
  await page.waitForURL('**/AddParticipantPage');
  await page.getByLabel('Email').fill(p.email);
  if (p.age) await page.getByLabel('Age').fill(p.age);
  if (p.notes) await page.getByLabel('Notes').fill(p.notes);
  if (p.gender) {
    await page.getByRole('textbox', { name: 'Gender' }).click();
    await page.getByRole('option', { name: p.gender, exact: true }).click();
  }
  if (p.code) await page.getByLabel('Participant Code').fill(p.code);
  await page.getByRole('button', { name: 'Add Participant' }).click();
  await shows(page.getByText(/Participant .* added\./));
  await page.getByRole('button', { name: 'Back to trial' }).click();
  await page.waitForURL('**/TrialPage');
  await shows(participantsTable(page).getByText(p.email));
}

describe('trials and participants', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('an Admin runs a trial end to end', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'admin');
    await shows(page.getByRole('heading', { name: 'Dashboard' }));

    // Create a trial (validation first).
    await page.getByRole('button', { name: 'Add Trial' }).click();
    await page.getByRole('button', { name: 'Add Trial' }).last().click();
    await shows(page.getByText('Trial Number is required', { exact: true }));
    await shows(page.getByText('Trial Name is required', { exact: true }));
    await page.getByLabel('Trial Number').fill('E2E-1');
    await page.getByLabel('Trial Name').fill('Journey Cardio Study');
    await page.getByLabel('Trial Notes').fill('Created by the browser journey');
    await page.getByRole('button', { name: 'Add Trial' }).last().click();
    await shows(page.getByRole('button', { name: 'Journey Cardio Study' }));
    await screenshot(page, 'dashboard-trials');

    await page.getByRole('button', { name: 'Journey Cardio Study' }).click();
    await page.waitForURL('**/TrialPage');
    await shows(page.getByRole('heading', { name: 'Trial #E2E-1 - Journey Cardio Study' }));
    await shows(page.getByText(PARTICIPANT_MESSAGES.emptyTrial));

    // Add three participants, one with a code; the suffix rule is enforced in the form.
    await page.getByRole('button', { name: 'Add Participant' }).click();
    await page.getByLabel('Participant Code').fill('AB');
    await shows(page.getByText(PARTICIPANT_MESSAGES.suffixRule).nth(1));
    expect(await page.getByRole('button', { name: 'Add Participant' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Back to trial' }).click();
    await addParticipant(page, {
      email: 'zoe@journey.example',
      age: '34',
      gender: 'Female',
      code: '0007',
      notes: 'first',
    });
    await addParticipant(page, { email: 'adam@journey.example', age: '61', gender: 'Male' });
    await addParticipant(page, { email: 'max@journey.example', age: '45' });
    expect(await rowsOf(page).count()).toBe(3);
    await shows(participantsTable(page).getByText('JCSE2E1-0007'));

    // Filter, sort, page.
    await page.getByLabel('Search').fill('adam');
    await gone(participantsTable(page).getByText('zoe@journey.example')); // after the 200 ms debounce
    expect(await rowsOf(page).count()).toBe(1);
    await page.getByLabel('Search').fill('');
    await shows(participantsTable(page).getByText('zoe@journey.example'));
    await participantsTable(page).getByRole('button', { name: /^Age/ }).click();
    await shows(participantsTable(page).locator('th[aria-sort="ascending"]'));
    // The header shows the new sort at once; the rows follow with the server's answer.
    await expect.poll(() => rowsOf(page).first().innerText()).toContain('zoe@journey.example');
    await participantsTable(page).getByRole('button', { name: /^Age/ }).click();
    await shows(participantsTable(page).locator('th[aria-sort="descending"]'));
    await expect.poll(() => rowsOf(page).first().innerText()).toContain('adam@journey.example');

    // Hide a column and reload: it stays hidden.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByLabel('Notes').uncheck();
    // The menu as it stays (its opening transition and the checkbox's run out first).
    await page
      .getByRole('menu')
      .evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    await screenshot(page, 'trial-page-columns-menu');
    await page.keyboard.press('Escape');
    expect(await participantsTable(page).getByRole('columnheader', { name: 'Notes' }).count()).toBe(0);
    await page.reload();
    await shows(participantsTable(page).getByText('max@journey.example'));
    expect(await participantsTable(page).getByRole('columnheader', { name: 'Notes' }).count()).toBe(0);
    // ... and the sort (session state) survived the reload too.
    expect(await rowsOf(page).first().innerText()).toContain('adam@journey.example');
    await screenshot(page, 'trial-page');

    // Export what the table shows, as CSV and as XLSX.
    for (const format of ['CSV', 'XLSX'] as const) {
      await page.getByRole('button', { name: 'Export' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: `Export as ${format}` }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(
        new RegExp(`^TrialWear_trial_E2E-1_participants_\\d{4}-\\d{2}-\\d{2}\\.${format.toLowerCase()}$`),
      );
      const body = fs.readFileSync((await download.path())!);
      if (format === 'CSV') {
        const text = body.toString('utf8');
        expect(text).toContain('Id,Participant Code,Email,Gender,Age,Authorized Devices'); // Notes hidden by the user
        expect(text).toContain('zoe@journey.example');
      } else {
        expect(body.subarray(0, 2).toString('latin1')).toBe('PK'); // an .xlsx is a ZIP
      }
    }

    // Select two and reach the multi-participant page.
    await rowsOf(page).nth(0).getByRole('checkbox').check();
    await rowsOf(page).nth(1).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'View data of 2 participants' }).click();
    await page.waitForURL('**/ParticipantsDataPage');
    await shows(page.getByText('2 participants selected'));
    await screenshot(page, 'participants-data');
    await page.goBack();
    await page.waitForURL('**/TrialPage');

    // Edit a code.
    const adamRow = rowsOf(page).filter({ hasText: 'adam@journey.example' });
    await adamRow.getByRole('button', { name: 'Edit Participant' }).click();
    await page.getByLabel('Participant Code').fill('0007');
    await page.getByRole('button', { name: 'Save' }).click();
    await shows(page.getByText('Participant code JCSE2E1-0007 is already taken in this trial.'));
    await page.getByLabel('Participant Code').fill('0042');
    await page.getByRole('button', { name: 'Save' }).click();
    await shows(participantsTable(page).getByText('JCSE2E1-0042'));

    // Delete a participant.
    await rowsOf(page)
      .filter({ hasText: 'max@journey.example' })
      .getByRole('button', { name: 'Manage Participant' })
      .click();
    await page.waitForURL('**/Participant');
    await shows(page.getByText('Devices Management'));
    await screenshot(page, 'manage-participant');
    await page.getByRole('button', { name: 'Delete Participant' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL('**/TrialPage');
    await shows(participantsTable(page).getByText('zoe@journey.example'));
    expect(await participantsTable(page).getByText('max@journey.example').count()).toBe(0);
    expect(await rowsOf(page).count()).toBe(2);

    // Add and remove a trial user.
    await page.getByRole('button', { name: 'Manage Users for this trial' }).click();
    await page.waitForURL('**/TrialUsers');
    await shows(page.getByText('Trial Owner'));
    await page.getByRole('button', { name: 'Add User' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add User' }).click();
    await shows(page.getByText('Email is required', { exact: true }));
    await page.getByRole('textbox', { name: 'User Email' }).click();
    await page.getByRole('option', { name: /viewer@demo\.trialwear\.local/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add User' }).click();
    await shows(page.getByRole('table', { name: 'Users' }).getByText('viewer@demo.trialwear.local'));
    await screenshot(page, 'trial-users');
    await page
      .getByRole('table', { name: 'Users' })
      .locator('tr', { hasText: 'viewer@demo' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await shows(page.getByRole('dialog', { name: 'Delete User?' }));
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await gone(page.getByRole('table', { name: 'Users' }).getByText('viewer@demo.trialwear.local'));
    await context.close();
  });

  it('a trial of many participants: the server pages, filters and sorts; the selection spans pages', async () => {
    // A team of its own with a 65-participant trial: codes PGT-1 … PGT-65 (unpadded, so the sort's
    // digit rule shows), every 10th with a Fitbit link.
    const teamId = await journeyTeam('E2E Trial Table Team', {
      hiddenFields: 'none',
      admin: 'trialtableadmin',
    });
    await withDatabase(async (db) => {
      const trial = await db.query(
        `INSERT INTO trials (team_id, trial_number, trial_name, trial_code) VALUES ($1, 'PG-1', 'Paging Study', 'PGT') RETURNING id`,
        [teamId],
      );
      await db.query(
        `WITH p AS (
           INSERT INTO participants (team_id, trial_id, email, age, participant_code, participant_code_suffix)
           SELECT $1, $2, 'pager' || i || '@journey.example', 20 + i % 50, 'PGT-' || i, i::text
             FROM generate_series(1, 65) AS i
           RETURNING id, participant_code_suffix::int AS i)
         INSERT INTO participant_devices (participant_id, team_id, provider, authorization_status, provider_timezone)
         SELECT id, $1, 'fitbit', 'authorized', 'UTC' FROM p WHERE i % 10 = 0`,
        [teamId, trial.rows[0].id],
      );
    });
    const { page, context } = await newPage(browser);
    const asked: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (/^\/api\/trialParticipants\/\d+$/.test(url.pathname)) asked.push(url.search);
    });
    await signIn(page, 'trialtableadmin');
    await page.getByRole('button', { name: 'Paging Study' }).click();
    await page.waitForURL('**/TrialPage');
    await shows(participantsTable(page).getByText('PGT-10', { exact: true }));
    expect(await rowsOf(page).count()).toBe(10);
    await shows(page.getByText('65 rows · 0 selected (max 10)'));
    // One page at a time, never the whole trial.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((q) => q.includes('page=') && q.includes('pageSize='))).toBe(true);

    // 50 a page: the second page holds the last 15.
    await page.getByRole('textbox', { name: 'Rows per page' }).click();
    await page.getByRole('option', { name: '50', exact: true }).click();
    await expect.poll(() => rowsOf(page).count()).toBe(50);
    await page.getByRole('button', { name: '2', exact: true }).click();
    await expect.poll(() => rowsOf(page).count()).toBe(15);
    await shows(participantsTable(page).getByText('PGT-65', { exact: true }));

    // Select two here and one on the first page: the selection spans pages, and so does its limit.
    await rowsOf(page).filter({ hasText: 'pager64@' }).getByRole('checkbox').check();
    await rowsOf(page).filter({ hasText: 'pager65@' }).getByRole('checkbox').check();
    await page.getByRole('button', { name: '1', exact: true }).click();
    await shows(participantsTable(page).getByText('PGT-1', { exact: true }));
    for (let i = 1; i <= 8; i++)
      await rowsOf(page)
        .filter({ hasText: `pager${i}@` })
        .getByRole('checkbox')
        .check();
    await shows(page.getByText('65 rows · 10 selected (max 10)'));
    await rowsOf(page).filter({ hasText: 'pager9@' }).getByRole('checkbox').click();
    await shows(page.getByText('You can select at most 10 rows.'));
    expect(await rowsOf(page).filter({ hasText: 'pager9@' }).getByRole('checkbox').isChecked()).toBe(false);
    for (let i = 2; i <= 8; i++)
      await rowsOf(page)
        .filter({ hasText: `pager${i}@` })
        .getByRole('checkbox')
        .uncheck();
    await shows(page.getByText('65 rows · 3 selected (max 10)'));
    await screenshot(page, 'trial-page-paged');
    await page.getByRole('button', { name: 'View data of 3 participants' }).click();
    await page.waitForURL('**/ParticipantsDataPage');
    await shows(page.getByText('3 participants selected'));
    await page.goBack();
    await page.waitForURL('**/TrialPage');

    // Sorted by code, descending: digits by value (PGT-65 first, not PGT-9), over all 65.
    await shows(participantsTable(page).getByText('PGT-1', { exact: true }));
    await participantsTable(page)
      .getByRole('button', { name: /^Participant Code/ })
      .click();
    await shows(participantsTable(page).locator('th[aria-sort="ascending"]'));
    await participantsTable(page)
      .getByRole('button', { name: /^Participant Code/ })
      .click();
    await shows(participantsTable(page).locator('th[aria-sort="descending"]'));
    await expect.poll(() => rowsOf(page).first().innerText()).toContain('PGT-65');

    // The filter is the server's: its matches over every page, the total its count.
    await page.getByLabel('Search').fill('pager6');
    await shows(page.getByText(/^7 rows ·/));
    await expect.poll(() => rowsOf(page).count()).toBe(7);
    expect(await rowsOf(page).first().innerText()).toContain('PGT-65');
    expect(await rowsOf(page).last().innerText()).toContain('PGT-6');
    await page.getByLabel('Search').fill('fitbit');
    await shows(page.getByText(/^6 rows ·/));
    await page.getByLabel('Search').fill('pager6');
    await shows(page.getByText(/^7 rows ·/));

    // Reload: the filter, the sort and the page size are remembered (session state).
    await page.reload();
    await shows(page.getByText(/^7 rows ·/));
    expect(await page.getByLabel('Search').inputValue()).toBe('pager6');
    await shows(participantsTable(page).locator('th[aria-sort="descending"]'));
    expect(await rowsOf(page).first().innerText()).toContain('PGT-65');
    expect(await page.getByRole('textbox', { name: 'Rows per page' }).inputValue()).toBe('50');
    expect(await footer(page).count()).toBe(1);
    await context.close();
  });

  // That the server refuses the Viewer's write anyway is an integration test (participants.int.test.ts).
  it('a Viewer sees no add or edit controls', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'viewer');
    await shows(page.getByRole('heading', { name: 'Dashboard' }));
    await shows(page.getByRole('button', { name: 'Sleep and Activity Study' }));
    expect(await page.getByRole('button', { name: 'Add Trial' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Edit trial/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sleep and Activity Study' }).click();
    await shows(participantsTable(page).getByText('SLP-001'));
    expect(await page.getByRole('button', { name: 'Add Participant' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Import participants' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit Participant' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Manage Users for this trial' }).count()).toBe(0);
    await screenshot(page, 'viewer-trial-page');
    await context.close();
  });
});
