/*
 * A participant's own account (issue #14): sign up → confirm the email by
 * signing in through the mailed link → see the device shared with the study
 * → stop sharing (confirmed in a modal) → the staff page shows it revoked.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { consentFromEmail, openManageParticipant } from '../support/consent.js';
import { waitForMail } from '../support/inbox.js';
import { gone, shows } from '../support/wait.js';

const EMAIL = 'hbp-005@participants.trialwear.local';
const PASSWORD = 'Patient-pw1!';
const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe('participant sign-in and stop sharing', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('sign up → sign in → see the shared device → stop sharing', async () => {
    const staff = await newPage(browser);
    await signIn(staff.page, 'admin');
    await openManageParticipant(staff.page, 'HBP-005');
    await staff.page.getByRole('button', { name: 'Request Authorization for Fitbit' }).click();
    await shows(staff.page.getByText('The consent link was emailed to the participant.'));
    const consent = await consentFromEmail(browser, EMAIL, 'Allow');
    await shows(consent.page.getByText('Your Fitbit is now connected to your study.', { exact: false }));
    await consent.context.close();

    const { page, context } = await newPage(browser); // the participant's browser
    await page.goto('/ParticipantSignupPage');
    await page.getByLabel('Username').fill('hbp005');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await shows(page.getByText('We sent a message about your participant account', { exact: false }));

    const mail = unfold(
      await waitForMail((m) => m.includes(`To: ${EMAIL}`) && m.includes('ParticipantLoginPage')),
    );
    const link = new URL(mail.match(/https?:\/\/\S+\/ParticipantLoginPage\?verify=[\w-]+/)![0]);
    await page.goto(link.pathname + link.search);
    await shows(page.getByText('Sign in once to confirm your email address.'));
    await page.getByLabel('Username').fill('hbp005');
    await page.getByLabel('Password').fill('Wrong-pass1!');
    await page.getByRole('button', { name: 'Log in' }).click();
    await shows(page.getByRole('alert').getByText('Login failed: Invalid username or password'));
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/ParticipantHome');

    const table = page.getByRole('table', { name: 'Shared devices' });
    const row = table.locator('tbody tr', { hasText: 'Home Blood Pressure Pilot' });
    await shows(row.getByText('Fitbit'));
    await shows(row.getByText('Demo Research Team'));
    await screenshot(page, 'participant-home');

    const stop = row.getByRole('button', { name: 'Stop sharing Fitbit with Home Blood Pressure Pilot' });
    await stop.click();
    const dialog = page.getByRole('dialog', { name: 'Stop sharing?' });
    await shows(dialog);
    await screenshot(page, 'participant-stop-sharing-confirm');
    await dialog.getByRole('button', { name: 'Stop sharing' }).click();
    await shows(page.getByText('You no longer share this device with the study.'));
    await gone(row);
    await shows(page.getByText('You are not sharing any device with a study.'));

    // The study team sees the link revoked.
    await staff.page.reload();
    await shows(staff.page.getByText('Fitbit · Revoked'));
    await staff.context.close();

    // Signing out ends the participant's session: the page sends them to the login.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/ParticipantLoginPage');
    await page.goto('/ParticipantHome');
    await page.waitForURL('**/ParticipantLoginPage');
    expect(new URL(page.url()).pathname).toBe('/ParticipantLoginPage');
    await context.close();
  });
});
