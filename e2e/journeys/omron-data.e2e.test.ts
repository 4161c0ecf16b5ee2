/*
 * Omron and Dexcom data, the participant overview and the raw pages (issue
 * #10 items 5–7, 9): a participant links both through the simulators, then the
 * staff's pages must show exactly what the simulators' own generators make
 * for that participant (packages/simulators), and the Sys_Admin raw page the
 * provider's JSON.
 */

import { glucoseSummary, kgToLb, SCALE_FORM_MESSAGES } from '@trialwear/contract';
import { accountFromSeed, dexcomEgvs, omronDay } from '@trialwear/simulators';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { consentFromEmail, openManageParticipant } from '../support/consent.js';
import { shows } from '../support/wait.js';

const CODE = 'HBP-004';
const EMAIL = 'hbp-004@participants.trialwear.local';
/** The simulators' client id when no provider credentials are configured (providers/<p>/<p>-client.ts). */
const SIM_CLIENT = 'TRIALWEARSIM';

const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The blood-pressure readings the Omron simulator holds for the user, local date ≥ since, up to now, oldest first. */
function expectedBloodPressure(userId: string, since: string, nowMs: number) {
  const out = [];
  for (let d = since; d <= addDays(new Date(nowMs).toISOString().slice(0, 10), 1); d = addDays(d, 1))
    out.push(...omronDay(userId, d).bloodPressure.filter((r) => Date.parse(r.dateTime) <= nowMs));
  return out.sort((a, b) => Date.parse(a.dateTime) - Date.parse(b.dateTime));
}

async function tableRows(page: Page, name: string) {
  const table = page.getByRole('table', { name });
  await shows(table.locator('tbody tr'));
  return table
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent?.trim() ?? '')),
    );
}

/** Links Fitbit, Omron and Dexcom for the participant CODE through the consent e-mails; returns its id. */
async function linkAllThree(browser: Browser): Promise<number> {
  const staff = await newPage(browser);
  await signIn(staff.page, 'sysadmin');
  await openManageParticipant(staff.page, CODE);
  const idText = await staff.page.getByText(/^Participant ID: \d+$/).textContent();
  const participantId = Number(idText?.match(/\d+/)?.[0]);
  expect(participantId).toBeGreaterThan(0);
  for (const brand of ['Fitbit', 'Omron', 'Dexcom'] as const) {
    await staff.page.getByRole('button', { name: `Request Authorization for ${brand}` }).click();
    const participant = await consentFromEmail(browser, EMAIL, 'Allow', brand);
    await shows(
      participant.page.getByText(`Your ${brand} is now connected to your study. You may close this page.`),
    );
    await participant.context.close();
  }
  await staff.context.close();
  return participantId;
}

describe('Omron and Dexcom data pages', () => {
  let browser: Browser;
  let participantId: number;
  // The file's fixture, made as a coordinator does: the three consents through the e-mailed links.
  beforeAll(async () => {
    browser = await launchBrowser();
    participantId = await linkAllThree(browser);
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
    const summaryId = await chart.getAttribute('aria-describedby');
    const summary = await staff.page.locator(`[id="${summaryId}"]`).textContent();
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
    await startInput.fill(addDays(new Date().toISOString().slice(0, 10), 2));
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
    for (let d = since; d <= addDays(new Date(now).toISOString().slice(0, 10), 1); d = addDays(d, 1))
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

  it('Dexcom page: time in range and the other figures equal glucoseSummary over the generator’s values', async () => {
    const staff = await newPage(browser);
    await signIn(staff.page, 'admin');
    await openManageParticipant(staff.page, CODE);
    const answer = staff.page.waitForResponse((r) => r.url().includes('/api/getDexcomParticipantData/'));
    await staff.page.getByRole('button', { name: 'Glucose', exact: true }).click();
    await staff.page.waitForURL('**/DexcomParticipantDataPage');
    const url = new URL((await answer).url());
    const from = Date.parse(`${url.searchParams.get('startDate')}Z`);
    const to = Date.parse(`${url.searchParams.get('endDate')}Z`);
    expect(to - from).toBe(7 * 86_400_000);
    const userId = `SandboxUser-${accountFromSeed(`${SIM_CLIENT}:${participantId}`, 8)}`;
    const values = dexcomEgvs(userId, from, to).map((r) => r.value);
    const s = glucoseSummary(values, 7);
    const figure = (label: string) => staff.page.getByLabel(label, { exact: true });
    await shows(figure('Time in range 70–180'));
    const pct = (n: number) => `${n.toFixed(1)}%`;
    expect(await figure('Time in range 70–180').textContent()).toContain(pct(s.inRange));
    expect(await figure('Below 70').textContent()).toContain(pct(s.below70));
    expect(await figure('Below 54').textContent()).toContain(pct(s.below54));
    expect(await figure('Above 180').textContent()).toContain(pct(s.above180));
    expect(await figure('Above 250').textContent()).toContain(pct(s.above250));
    expect(await figure('Mean glucose').textContent()).toContain(`${s.mean!.toFixed(1)} mg/dL`);
    expect(await figure('GMI').textContent()).toContain(pct(s.gmi!));
    expect(await figure('Coefficient of variation').textContent()).toContain(pct(s.cv!));
    expect(await figure('Readings').textContent()).toContain(`${s.readings} of ${s.possibleReadings}`);
    await shows(staff.page.getByRole('img', { name: /^Estimated glucose/ }));
    const rows = await tableRows(staff.page, 'Glucose readings');
    const newest = dexcomEgvs(userId, from, to).at(-1)!;
    expect(rows[0]!.slice(0, 2)).toEqual([
      newest.displayTime.slice(0, 16).replace('T', ' '),
      String(newest.value),
    ]);
    await screenshot(staff.page, 'dexcom-glucose');

    // 30 days: the server stitches windows; the count follows the generator again.
    const longer = staff.page.waitForResponse((r) => r.url().includes('/api/getDexcomParticipantData/'));
    await staff.page.getByText('90 days', { exact: true }).click();
    const u90 = new URL((await longer).url());
    const v90 = dexcomEgvs(
      userId,
      Date.parse(`${u90.searchParams.get('startDate')}Z`),
      Date.parse(`${u90.searchParams.get('endDate')}Z`),
    ).map((r) => r.value);
    const s90 = glucoseSummary(v90, 90);
    await shows(staff.page.getByText(`${s90.readings} of ${s90.possibleReadings}`));
    expect(await figure('Time in range 70–180').textContent()).toContain(pct(s90.inRange));
    await staff.context.close();
  });

  it('participant overview: the Omron and Dexcom sections of the last 7 days', async () => {
    const staff = await newPage(browser);
    await signIn(staff.page, 'admin');
    await staff.page.goto('/');
    await staff.page.getByRole('button', { name: 'Home Blood Pressure Pilot' }).click();
    await staff.page.waitForURL('**/TrialPage');
    const row = staff.page
      .getByRole('table', { name: 'Participants' })
      .locator('tbody tr', { hasText: CODE });
    await row.getByRole('checkbox').check();
    await staff.page.getByRole('button', { name: 'View participant data' }).click();
    await staff.page.waitForURL('**/ParticipantOverview');
    await shows(staff.page.getByText('Scale and blood pressure'));
    await shows(staff.page.getByRole('img', { name: 'Blood pressure (mmHg)' }));
    await shows(staff.page.getByRole('img', { name: 'Weight (Lbs)' }));
    await shows(staff.page.getByText('Glucose monitor'));
    // The tracker section embeds the Fitbit feature's 7-vs-7 tiles.
    await shows(staff.page.getByText('Fitness tracker'));
    await shows(staff.page.getByRole('button', { name: 'More Fitbit data' }));
    await shows(staff.page.getByLabel('Time in range 70–180', { exact: true }));
    await staff.page.waitForTimeout(300);
    await screenshot(staff.page, 'participant-overview');
    await staff.page.getByRole('button', { name: 'More Omron data' }).click();
    await staff.page.waitForURL('**/OmronParticipantDataPage');
    await shows(staff.page.getByRole('table', { name: 'Blood pressure readings' }));
    await staff.context.close();
  });

  it('Sys_Admin raw page: status, request and the body as JSON; Copy puts it on the clipboard', async () => {
    const admin = await newPage(browser);
    await admin.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(admin.page, 'sysadmin');
    await openManageParticipant(admin.page, CODE);
    // Trial page → participant overview → 'Raw data' (Sys_Admin) → choose the provider.
    await admin.page.getByRole('button', { name: /^Trial: #/ }).click();
    await admin.page.waitForURL('**/TrialPage');
    const row = admin.page
      .getByRole('table', { name: 'Participants' })
      .locator('tbody tr', { hasText: CODE });
    await row.getByRole('checkbox').check();
    await admin.page.getByRole('button', { name: 'View participant data' }).click();
    await admin.page.waitForURL('**/ParticipantOverview');
    await admin.page.getByRole('button', { name: 'Raw data' }).click();
    await admin.page.waitForURL('**/ParticipantRaw');
    await shows(admin.page.getByRole('button', { name: 'Omron raw data' }));
    await shows(admin.page.getByRole('button', { name: 'Dexcom raw data' }));
    await shows(admin.page.getByRole('button', { name: 'Fitbit raw data' }));
    await screenshot(admin.page, 'participant-raw');
    await admin.page.getByRole('button', { name: 'Omron raw data' }).click();
    await admin.page.waitForURL('**/OmronParticipantDataRaw');
    await admin.page.getByRole('button', { name: 'Get raw data' }).click();
    await shows(admin.page.getByLabel('Status', { exact: true }));
    expect(await admin.page.getByLabel('Status', { exact: true }).textContent()).toBe('200');
    const body = admin.page.getByLabel('Body', { exact: true });
    const text = (await body.textContent()) ?? '';
    const json = JSON.parse(text) as { status: number; result: { bloodPressure: unknown[] } };
    expect(json.status).toBe(0);
    expect(Array.isArray(json.result.bloodPressure)).toBe(true);
    expect(text).toContain('\n  "'); // indented
    await admin.page.getByRole('button', { name: 'Copy' }).click();
    await shows(admin.page.getByRole('button', { name: 'Copied' }));
    expect(await admin.page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    await screenshot(admin.page, 'omron-raw');

    // Dexcom raw: devices.
    await admin.page.goBack();
    await admin.page.getByRole('button', { name: 'Dexcom raw data' }).click();
    await admin.page.waitForURL('**/DexcomParticipantDataRaw');
    await admin.page.getByRole('textbox', { name: 'Dexcom resource' }).click();
    await admin.page.getByRole('option', { name: 'egvs' }).click();
    await admin.page.getByRole('button', { name: 'Get raw data' }).click();
    await shows(admin.page.getByLabel('Status', { exact: true }));
    const egvs = JSON.parse((await admin.page.getByLabel('Body', { exact: true }).textContent()) ?? '') as {
      recordType: string;
    };
    expect(egvs.recordType).toBe('egv');
    await screenshot(admin.page, 'dexcom-raw');
    await admin.context.close();
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
    const summary = await staff.page
      .locator(`[id="${await chart.getAttribute('aria-describedby')}"]`)
      .textContent();
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
