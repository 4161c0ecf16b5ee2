/*
 * The Dexcom page, the participant overview and the raw pages (issue #10
 * items 7, 9): a participant links Fitbit, Omron and Dexcom through the
 * simulators, then the Dexcom figures must equal glucoseSummary over what the
 * simulator's own generator makes for that participant (packages/simulators),
 * the overview show the Omron and Dexcom sections, and the Sys_Admin raw
 * page the provider's JSON. A participant of its own (HBP-006); the Omron
 * pages: omron-data.e2e.test.ts.
 */

import { glucoseSummary } from '@trialwear/contract';
import { accountFromSeed, dexcomEgvs } from '@trialwear/simulators';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { openManageParticipant } from '../support/consent.js';
import { linkAllThree, SIM_CLIENT } from '../support/omron-dexcom.js';
import { tableRows } from '../support/tables.js';
import { shows } from '../support/wait.js';

const CODE = 'HBP-006';
/** Dexcom's trend values as the page words them (the receiver's arrows). */
const TREND_WORDS: Record<string, string> = {
  doubleUp: '⇈ rising quickly',
  singleUp: '↑ rising',
  fortyFiveUp: '↗ rising slowly',
  flat: '→ steady',
  fortyFiveDown: '↘ falling slowly',
  singleDown: '↓ falling',
  doubleDown: '⇊ falling quickly',
  notComputable: 'trend not computable',
};
const EMAIL = 'hbp-006@participants.trialwear.local';

describe('Dexcom data, participant overview and raw pages', () => {
  let browser: Browser;
  let participantId: number;
  // The file's fixture, made as a coordinator does: the three consents through the e-mailed links.
  beforeAll(async () => {
    browser = await launchBrowser();
    participantId = await linkAllThree(browser, CODE, EMAIL);
  });
  afterAll(() => browser.close());

  // A hang guard, not a budget: 90 days are 25,920 readings read, summed and drawn (about 20 s alone,
  // 63 s once beside the other suites on 2 cores).
  it(
    'Dexcom page: time in range and the other figures equal glucoseSummary over the generator’s values',
    { timeout: 150_000 },
    async () => {
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
      // Ten rows a page (the spec's default), trends in words, one clock: the participant's.
      expect(rows).toHaveLength(10);
      expect(rows[0]![2]).toBe(TREND_WORDS[newest.trend ?? ''] ?? newest.trend);
      const windowText = await staff.page.getByLabel('Window').textContent();
      expect(windowText).toContain(
        `${newest.displayTime.slice(0, 16).replace('T', ' ')} (participant’s clock)`,
      );
      expect(windowText).not.toContain('UTC');
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
      // 25,920 readings parsed, summed, sorted and drawn after the answer arrives: on a loaded
      // 2-core CI machine that took over 10 s once. A hang guard again, not a budget.
      await shows(staff.page.getByText(`${s90.readings} of ${s90.possibleReadings}`), 60_000);
      expect(await figure('Time in range 70–180').textContent()).toContain(pct(s90.inRange));
      await staff.context.close();
    },
  );

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
});
