/*
 * Omron data (issue #10 items 5, 6, 9): a participant links Fitbit, Omron and
 * Dexcom through the simulators, then the staff's Omron pages (the form and
 * its messages, one participant and several, an errored device card, a
 * Viewer's view) must show exactly what the simulator's own generator makes
 * for that participant (packages/simulators). The Dexcom page, the
 * participant overview and the raw pages: dexcom-overview-raw.e2e.test.ts.
 */

import { kgToLb, SCALE_FORM_MESSAGES } from '@trialwear/contract';
import { accountFromSeed, omronDay } from '@trialwear/simulators';
import { addDays, datesBetween, utcDate } from '@trialwear/zone';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { openManageParticipant } from '../support/consent.js';
import { expectedBloodPressure, linkAllThree, SIM_CLIENT } from '../support/omron-dexcom.js';
import { tableRows } from '../support/tables.js';
import { shows } from '../support/wait.js';

/** A chart's screen-reader summary: written once the chart has drawn (TimeChart, issue #24), so waited for. */
async function summaryOf(page: Page, chart: Locator) {
  const summary = page.locator(`[id="${await chart.getAttribute('aria-describedby')}"]`);
  await expect.poll(async () => (await summary.textContent()) ?? '').not.toBe('');
  return summary.textContent();
}

const CODE = 'HBP-004';
const EMAIL = 'hbp-004@participants.trialwear.local';

describe('Omron data pages', () => {
  let browser: Browser;
  let participantId: number;
  // The file's fixture, made as a coordinator does: the three consents through the e-mailed links.
  beforeAll(async () => {
    browser = await launchBrowser();
    participantId = await linkAllThree(browser, CODE, EMAIL);
  });
  afterAll(() => browser.close());

  it('the manage page shows the participant’s Fitbit, Omron and Dexcom links', async () => {
    const staff = await newPage(browser);
    await signIn(staff.page, 'admin');
    await openManageParticipant(staff.page, CODE);
    await shows(staff.page.getByText(`Participant ID: ${participantId}`));
    await shows(staff.page.getByText(/^Fitbit · Authorized on /));
    await shows(staff.page.getByText(/^Omron · Authorized on /));
    await shows(staff.page.getByText(/^Dexcom · Authorized on /));
    await staff.context.close();
  });

  it('Omron form: each validation message, then the simulator’s blood pressure in the table and chart', async () => {
    const staff = await newPage(browser);
    await signIn(staff.page, 'admin');
    await openManageParticipant(staff.page, CODE);
    await staff.page.getByRole('button', { name: 'Blood Pressure', exact: true }).first().click();
    await staff.page.waitForURL('**/OmronParticipantDataPage');
    await shows(staff.page.getByText(`Participant ID: ${participantId}`));
    await shows(staff.page.getByRole('button', { name: /^Trial: #.+ - Home Blood Pressure Pilot$/ }));
    // Raw pages are Sys_Admin's: an Admin has no 'Raw data' button.
    expect(await staff.page.getByRole('button', { name: 'Raw data' }).count()).toBe(0);

    // The default query (7 days ago, all, ascending) is shown at once.
    const startInput = staff.page.getByLabel('Start date');
    const since = await startInput.inputValue();
    const now = Date.now();
    const rows = await tableRows(staff.page, 'Blood pressure readings');
    const userId = accountFromSeed(`${SIM_CLIENT}:${participantId}`, 32);
    const expected = expectedBloodPressure(userId, since, now);
    expect(expected.length).toBeGreaterThan(0);
    // The table pages 10 rows; its first page is the oldest readings.
    expect(rows).toEqual(
      expected
        .slice(0, 10)
        .map((r) => [
          r.dateTimeLocal.slice(0, 16).replace('T', ' '),
          String(r.systolic),
          String(r.diastolic),
          String(r.pulse),
        ]),
    );
    // The chart is drawn, and its accessible summary counts every reading.
    const chart = staff.page.getByRole('img', { name: 'Blood pressure', exact: true });
    await shows(chart);
    expect(await chart.locator('canvas').count()).toBeGreaterThan(0);
    const summary = await summaryOf(staff.page, chart);
    const systolic = expected.map((r) => r.systolic);
    expect(summary).toContain(`Systolic: ${expected.length} values, lowest ${Math.min(...systolic)}`);
    expect(summary).toContain(`highest ${Math.max(...systolic)}`);
    await screenshot(staff.page, 'omron-blood-pressure');

    // Each message of core §5.
    const category = staff.page.getByRole('textbox', { name: 'Category' });
    // Mantine keeps its clear button out of the accessibility tree: found by its label attribute.
    await staff.page.locator('button[aria-label="Clear category"]').click();
    await staff.page.getByRole('button', { name: 'Show data' }).click();
    await shows(staff.page.getByText(SCALE_FORM_MESSAGES.category));
    await category.click();
    await staff.page.getByRole('option', { name: 'Blood Pressure' }).click();

    await startInput.fill('');
    await staff.page.getByRole('button', { name: 'Show data' }).click();
    await shows(staff.page.getByText(SCALE_FORM_MESSAGES.startDate));
    await startInput.fill(addDays(utcDate(new Date()), 2));
    await staff.page.getByRole('button', { name: 'Show data' }).click();
    await shows(staff.page.getByText(SCALE_FORM_MESSAGES.future));
    await startInput.fill(since);

    const limit = staff.page.getByRole('textbox', { name: 'Results limit' });
    await staff.page.locator('button[aria-label="Clear results limit"]').click();
    await staff.page.getByRole('button', { name: 'Show data' }).click();
    await shows(staff.page.getByText(SCALE_FORM_MESSAGES.limit));
    await screenshot(staff.page, 'omron-form-messages');

    // Limit 10, newest first: the ten newest readings.
    await limit.click();
    await staff.page.getByRole('option', { name: '10', exact: true }).click();
    // Picking the option already chosen keeps it (it used to empty the field and block the form).
    await limit.click();
    await staff.page.getByRole('option', { name: '10', exact: true }).click();
    expect(await limit.inputValue()).toBe('10');
    await staff.page.getByText('Newest first', { exact: true }).click();
    await staff.page.getByRole('button', { name: 'Show data' }).click();
    await staff.page.waitForFunction(
      (first) =>
        document
          .querySelector('table[aria-label="Blood pressure readings"] tbody tr td')
          ?.textContent?.trim() === first,
      expected[expected.length - 1]!.dateTimeLocal.slice(0, 16).replace('T', ' '),
    );
    const newest = await tableRows(staff.page, 'Blood pressure readings');
    expect(newest.map((r) => r[1])).toEqual(
      expected
        .slice(-10)
        .reverse()
        .map((r) => String(r.systolic)),
    );

    // Weight: pounds, one decimal.
    await category.click();
    await staff.page.getByRole('option', { name: 'Weight' }).click();
    await staff.page.getByRole('button', { name: 'Show data' }).click();
    const weights = await tableRows(staff.page, 'Weight readings');
    const expectedWeights: string[] = [];
    for (const d of datesBetween(since, addDays(utcDate(now), 1)))
      for (const w of omronDay(userId, d).weight)
        if (Date.parse(w.dateTime) <= now) expectedWeights.push(String(kgToLb(w.weight)));
    expect(weights.map((r) => r[1])).toEqual(expectedWeights.reverse().slice(0, 10));
    await shows(staff.page.getByRole('img', { name: 'Weight', exact: true }));
    await screenshot(staff.page, 'omron-weight');

    // The Omron part of the overview alone: the last 7 days, charts drawn.
    await staff.page.getByRole('button', { name: 'Last 7 days overview' }).click();
    await staff.page.waitForURL('**/OmronParticipantOverview');
    await shows(staff.page.getByRole('img', { name: 'Blood pressure (mmHg)', exact: true }));
    await shows(staff.page.getByRole('img', { name: 'Weight (Lbs)', exact: true }));
    await screenshot(staff.page, 'omron-overview');
    await staff.context.close();
  });

  it('several participants: one systolic line each, a participant without a link gets its own message', async () => {
    const staff = await newPage(browser);
    await signIn(staff.page, 'admin');
    await staff.page.goto('/');
    await staff.page.getByRole('button', { name: 'Home Blood Pressure Pilot' }).click();
    await staff.page.waitForURL('**/TrialPage');
    const table = staff.page.getByRole('table', { name: 'Participants' });
    await table.locator('tbody tr', { hasText: CODE }).getByRole('checkbox').check();
    await table.locator('tbody tr', { hasText: 'HBP-005' }).getByRole('checkbox').check();
    await staff.page.getByRole('button', { name: 'View data of 2 participants' }).click();
    await staff.page.waitForURL('**/ParticipantsDataPage');
    await staff.page.getByText('Scale and blood pressure (Omron)').click();
    await staff.page.getByRole('button', { name: 'Show data' }).click();
    await staff.page.waitForURL('**/OmronParticipantsDataPage');
    const chart = staff.page.getByRole('img', { name: 'Systolic blood pressure', exact: true });
    await shows(chart);
    const summary = await summaryOf(staff.page, chart);
    const since = await staff.page.getByLabel('Start date').inputValue();
    const userId = accountFromSeed(`${SIM_CLIENT}:${participantId}`, 32);
    // One point per local day: the mean systolic of that day's readings.
    const perDay = new Map<string, number[]>();
    for (const r of expectedBloodPressure(userId, since, Date.now()))
      perDay.set(r.dateTimeLocal.slice(0, 10), [
        ...(perDay.get(r.dateTimeLocal.slice(0, 10)) ?? []),
        r.systolic,
      ]);
    const means = [...perDay.values()].map(
      (v) => Math.round((v.reduce((a, b) => a + b, 0) / v.length) * 10) / 10,
    );
    // As the chart's summary writes a mmHg value: up to two decimals (a day's mean may be 137.5).
    const mmHg = (v: number) => `${(Math.round(v * 100) / 100).toLocaleString('en-US')} mmHg`;
    expect(summary).toContain(
      // Legends name participants by their code (passed from the trial page's selection).
      `${CODE}: ${means.length} values, lowest ${mmHg(Math.min(...means))}, highest ${mmHg(Math.max(...means))}`,
    );
    expect(summary).toContain('HBP-005: no values');
    await shows(staff.page.getByRole('alert').filter({ hasText: /^HBP-005: / }));
    // Diastolic too, and the same daily means as a table: systolic/diastolic per participant and day.
    await shows(staff.page.getByRole('img', { name: 'Diastolic blood pressure', exact: true }));
    const days = staff.page.getByRole('table', { name: 'Daily mean blood pressure' });
    await shows(days.getByRole('columnheader', { name: `${CODE} (mmHg)` }));
    await shows(days.getByRole('columnheader', { name: 'HBP-005 (mmHg)' }));
    const mean = (v: number[]) => Math.round((v.reduce((a, b) => a + b, 0) / v.length) * 10) / 10;
    const first = [...perDay.keys()].sort()[0]!;
    const ofFirst = expectedBloodPressure(userId, since, Date.now()).filter(
      (r) => r.dateTimeLocal.slice(0, 10) === first,
    );
    const firstRow = await days
      .locator('tbody tr')
      .first()
      .evaluate((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? ''));
    expect(firstRow).toEqual([
      first,
      `${mean(ofFirst.map((r) => r.systolic))}/${mean(ofFirst.map((r) => r.diastolic))}`,
      '—',
    ]);
    await screenshot(staff.page, 'omron-participants');
    await staff.context.close();
  });

  it('an errored Omron device card: Sys_Admin → View Participant Data → link status and the provider answers', async () => {
    const admin = await newPage(browser);
    await signIn(admin.page, 'sysadmin');
    await openManageParticipant(admin.page, CODE);
    await shows(admin.page.getByText(/^Omron · Authorized on /));
    // Omron answers 429 (never retried) for a while: the card becomes an error card. Several answers,
    // since other reads (the device-status round) may take the first; cleared once the card shows.
    const fail = (count: number) =>
      admin.page.request.post('/sim/omron/_control/fail-next', { data: { count, status: 429 } });
    expect((await fail(5)).ok()).toBe(true);
    await admin.page.reload();
    await shows(admin.page.getByText('(Rate limit exceeded)'));
    expect((await fail(0)).ok()).toBe(true);
    await screenshot(admin.page, 'omron-error-card');
    await admin.page.getByRole('button', { name: 'View Participant Data' }).click();
    await admin.page.waitForURL('**/ParticipantDataPage');
    const status = admin.page.getByRole('table', { name: 'Link status' });
    await shows(status.locator('tr', { hasText: 'Omron' }).getByText('authorized'));
    await shows(status.locator('tr', { hasText: 'Dexcom' }).getByText('authorized'));
    await admin.page.locator('label', { hasText: /^Omron$/ }).click();
    await shows(admin.page.getByLabel('Omron device list', { exact: true }));
    await admin.page.getByRole('button', { name: 'Get raw data' }).click();
    await shows(admin.page.getByLabel('Status', { exact: true }));
    expect(await admin.page.getByLabel('Status', { exact: true }).textContent()).toBe('200');
    await screenshot(admin.page, 'participant-data-page');
    await admin.context.close();
  });

  it('a Viewer sees the data but gets /not-authorized on a raw page', async () => {
    const viewer = await newPage(browser);
    await signIn(viewer.page, 'viewer');
    await viewer.page.goto('/');
    await viewer.page.getByRole('button', { name: 'Home Blood Pressure Pilot' }).click();
    await viewer.page.waitForURL('**/TrialPage');
    const row = viewer.page
      .getByRole('table', { name: 'Participants' })
      .locator('tbody tr', { hasText: CODE });
    await row.getByRole('checkbox').check();
    await viewer.page.getByRole('button', { name: 'View participant data' }).click();
    await viewer.page.waitForURL('**/ParticipantOverview');
    await viewer.page.getByRole('button', { name: 'More Omron data' }).click();
    await shows(viewer.page.getByRole('table', { name: 'Blood pressure readings' }));
    expect(await viewer.page.getByRole('button', { name: 'Raw data' }).count()).toBe(0);
    await viewer.page.goto('/OmronParticipantDataRaw');
    await viewer.page.waitForURL('**/not-authorized');
    await viewer.page.goto('/ParticipantRaw');
    await viewer.page.waitForURL('**/not-authorized');
    await viewer.context.close();
  });
});
