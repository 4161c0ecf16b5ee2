import fs from 'node:fs';
import { PARTICIPANT_MESSAGES } from '@trialwear/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { gone, shows } from '../support/wait.js';

const participantsTable = (page: Page) => page.getByRole('table', { name: 'Participants' });
const rowsOf = (page: Page) => participantsTable(page).locator('tbody tr');

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
    expect(await rowsOf(page).first().innerText()).toContain('zoe@journey.example');
    await participantsTable(page).getByRole('button', { name: /^Age/ }).click();
    await shows(participantsTable(page).locator('th[aria-sort="descending"]'));
    expect(await rowsOf(page).first().innerText()).toContain('adam@journey.example');

    // Hide a column and reload: it stays hidden.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByLabel('Notes').uncheck();
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
    expect(await page.getByRole('button', { name: 'Edit Participant' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Manage Users for this trial' }).count()).toBe(0);
    await screenshot(page, 'viewer-trial-page');
    await context.close();
  });
});
