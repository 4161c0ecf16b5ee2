import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { waitForMail } from '../support/inbox.js';
import { shows } from '../support/wait.js';

const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

async function openManageParticipant(page: Page, code: string) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Home Blood Pressure Pilot' }).click();
  await page.waitForURL('**/TrialPage');
  const row = page.getByRole('table', { name: 'Participants' }).locator('tbody tr', { hasText: code });
  await row.getByRole('button', { name: 'Manage Participant' }).click();
  await page.waitForURL('**/Participant');
  await shows(page.getByText('Devices Management'));
}

async function consentFromEmail(browser: Browser, email: string, decision: 'Allow' | 'Deny') {
  const mail = unfold(
    await waitForMail((m) => m.includes(`To: ${email}`) && m.includes('PAFitbitConsentPage')),
  );
  const link = new URL(mail.match(/https?:\/\/\S+\/PAFitbitConsentPage\?id=\d+&t=[\w-]+/)![0]);
  const { page, context } = await newPage(browser); // the participant's own browser
  await page.goto(link.pathname + link.search);
  await page.getByRole('button', { name: 'Continue to Fitbit' }).click();
  await page.waitForURL('**/sim/fitbit/oauth2/authorize**');
  await shows(page.getByRole('button', { name: 'Allow' }));
  await screenshot(page, `fitbit-authorize-${decision.toLowerCase()}`);
  await page.getByRole('button', { name: decision }).click();
  await page.waitForURL('**/fitbit-callback**');
  return { page, context };
}

describe('linking a Fitbit', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('request → emailed consent link → Allow → success → device card with battery and last sync', async () => {
    const staff = await newPage(browser);
    await signIn(staff.page, 'admin');
    await openManageParticipant(staff.page, 'HBP-001');
    await shows(staff.page.getByText('Fitbit · Not authorized'));
    await staff.page.getByRole('button', { name: 'Request Authorization' }).click();
    await shows(staff.page.getByText('The consent link was emailed to the participant.'));

    const participant = await consentFromEmail(browser, 'hbp-001@participants.trialwear.local', 'Allow');
    await shows(
      participant.page.getByText('Your Fitbit is now connected to your study. You may close this page.'),
    );
    await screenshot(participant.page, 'fitbit-callback-success');
    await participant.context.close();

    await staff.page.reload();
    await shows(staff.page.getByText('Fitbit · Authorized'));
    await shows(staff.page.getByText(/^Battery \d+% · /));
    await shows(staff.page.getByText(/^Last sync: \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/));
    await shows(staff.page.getByRole('button', { name: 'Sleep Duration' }));
    await screenshot(staff.page, 'fitbit-device-card');

    // The trial page shows the authorized device.
    await staff.page.goto('/TrialPage');
    const row = staff.page
      .getByRole('table', { name: 'Participants' })
      .locator('tbody tr', { hasText: 'HBP-001' });
    await shows(row.getByText('Fitbit'));
    await staff.context.close();
  });

  it('Deny → the cancelled text', async () => {
    const staff = await newPage(browser);
    await signIn(staff.page, 'admin');
    await openManageParticipant(staff.page, 'HBP-002');
    await staff.page.getByRole('button', { name: 'Request Authorization' }).click();
    await shows(staff.page.getByText('The consent link was emailed to the participant.'));
    await staff.context.close();
    const participant = await consentFromEmail(browser, 'hbp-002@participants.trialwear.local', 'Deny');
    await shows(
      participant.page.getByText('The authorization has been canceled. You may now close this page.'),
    );
    expect(new URL(participant.page.url()).searchParams.get('error')).toBe('access_denied');
    await participant.context.close();
  });
});
