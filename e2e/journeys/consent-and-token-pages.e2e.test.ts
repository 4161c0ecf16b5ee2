/*
 * The staff consent pages (/FitbitParticipantConsent, /DexcomParticipantConsent)
 * and the token management pages (/FitbitManageParticipantToken,
 * /OmronManageParticipantToken), reached from Manage Participant.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { consentFromEmail, openManageParticipant } from '../support/consent.js';
import { shows } from '../support/wait.js';

const TRIAL = 'Sleep and Activity Study';

describe('consent and token pages', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('consent page: request, the participant completes it, the page sees it; token page: refresh and revoke', async () => {
    const staff = await newPage(browser);
    const page = staff.page;
    page.on('dialog', (d) => d.accept());
    await signIn(page, 'admin');
    await openManageParticipant(page, 'SLP-006', TRIAL);
    await page.getByRole('button', { name: 'Fitbit consent page' }).click();
    await page.waitForURL('**/FitbitParticipantConsent');
    await shows(page.getByRole('heading', { name: 'Fitbit consent' }));
    await shows(page.getByLabel('Consent status').getByText('Not authorized'));
    await page.getByRole('button', { name: 'Request Fitbit Consent' }).click();
    await shows(page.getByText('The consent link was emailed to the participant.'));
    await shows(page.getByText('Waiting for the participant to complete the consent…'));

    const participant = await consentFromEmail(browser, 'slp-006@participants.trialwear.local', 'Allow');
    await shows(participant.page.getByText(/now connected to your study/));
    await participant.context.close();

    await shows(page.getByText('The participant has completed the consent.'), 15_000);
    await shows(page.getByLabel('Consent status').getByText(/^Completed · Authorized on \d{4}-\d{2}-\d{2}$/));
    await screenshot(page, 'fitbit-participant-consent');

    await page.getByRole('button', { name: 'Back to Manage Participant' }).click();
    await page.getByRole('button', { name: 'Fitbit token' }).click();
    await page.waitForURL('**/FitbitManageParticipantToken');
    await shows(page.getByRole('heading', { name: 'Fitbit token management' }));
    const token = page.getByRole('table', { name: 'Token' });
    await shows(token.getByText(/^Authorized on /));
    await shows(token.getByText('Activity and exercise', { exact: true }));
    await screenshot(page, 'fitbit-token-management');
    await page.getByRole('button', { name: 'Refresh Token' }).click();
    await shows(page.getByText('The access token was refreshed.'));
    await page.getByRole('button', { name: 'Revoke Access' }).click();
    await shows(page.getByText('Access revoked.'));
    await shows(token.getByText('Revoked'));

    // Omron: nothing linked yet, so nothing to refresh or revoke.
    await page.getByRole('button', { name: 'Back to Manage Participant' }).click();
    await page.getByRole('button', { name: 'Omron token' }).click();
    await page.waitForURL('**/OmronManageParticipantToken');
    await shows(
      page.getByText('No Omron token: request the participant\u2019s consent from Manage Participant.'),
    );
    await screenshot(page, 'omron-token-management');

    // Dexcom consent page: the request is emailed (the demo team keeps emails).
    await page.getByRole('button', { name: 'Back to Manage Participant' }).click();
    await page.getByRole('button', { name: 'Dexcom consent page' }).click();
    await page.waitForURL('**/DexcomParticipantConsent');
    await page.getByRole('button', { name: 'Request Dexcom Consent' }).click();
    await shows(page.getByText('The consent link was emailed to the participant.'));
    await screenshot(page, 'dexcom-participant-consent');
    await staff.context.close();
  });
});
