/*
 * The defects found in issue #14 ("Finish the core pages"), one step each:
 * what staff and participants saw before the fix must not come back.
 */
import { AUTHORIZATION_FAILED, PASSWORD_FLOW_MESSAGES } from '@trialwear/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { gone, shows } from '../support/wait.js';

const participantsTable = (page: Page) => page.getByRole('table', { name: 'Participants' });

/** The browser console's errors (a failed request shows there as "Failed to load resource"). */
function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

async function openTrial(page: Page, name: string) {
  await page.goto('/');
  await page.getByRole('button', { name }).click();
  await page.waitForURL('**/TrialPage');
  await shows(participantsTable(page).locator('tbody tr'));
}

describe('core pages: defects found', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('signed out: no console error on the login page; callback errors offer Cancel; a bad sign-up link', async () => {
    const { page, context } = await newPage(browser);
    const errors = collectConsoleErrors(page);
    await page.goto('/LoginPage');
    await shows(page.getByLabel('Username'));
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);

    // "Please click Cancel" needs a Cancel; signed out it leads to the login page.
    await page.goto('/omron-callback?error=server_error');
    await shows(page.getByText(AUTHORIZATION_FAILED.omron));
    await screenshot(page, 'callback-error-cancel');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL('**/LoginPage');

    // An invalid sign-up link says so, and no longer claims to be checking it.
    await page.goto('/SignupValidation?token=not-a-real-token');
    await shows(page.getByText('This sign-up link cannot be used.', { exact: false }));
    expect(await page.getByText('Checking your sign-up link').count()).toBe(0);
    await screenshot(page, 'signup-link-invalid');
    await context.close();
  });

  it('a Viewer: told at once they cannot add participants; page survives a reload; square checkboxes; the empty dashboard explains', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'viewer');
    await shows(page.getByText("your team's Admins add you", { exact: false }));
    await openTrial(page, 'Sleep and Activity Study');

    // 12 participants: page 2 is remembered for the session, like search and sort.
    await page.getByRole('button', { name: '2', exact: true }).click();
    await shows(participantsTable(page).getByText('SLP-011'));
    await page.reload();
    await shows(participantsTable(page).getByText('SLP-011'));
    expect(await participantsTable(page).getByText('SLP-001', { exact: true }).count()).toBe(0);

    // Row selection: square checkboxes, not round radio-like ones. Polled: the table may still
    // re-render its rows after the reload, and a row's input replaced under the evaluation has no
    // computed style (NaN).
    const radius = () =>
      participantsTable(page)
        .locator('tbody tr')
        .first()
        .locator('input[type="checkbox"]')
        .evaluate((el) => Number.parseFloat(getComputedStyle(el).borderTopLeftRadius));
    await expect.poll(radius, { timeout: 10_000, interval: 100 }).toBeLessThanOrEqual(4);
    await screenshot(page, 'trial-page-page-2-checkboxes');

    // The route is open to Viewers, the write is not: say so before any form.
    await page.goto('/AddParticipantPage');
    await shows(page.getByText('You cannot add participants', { exact: false }));
    expect(await page.getByLabel('Email').count()).toBe(0);
    await screenshot(page, 'viewer-add-participant');

    // A Viewer on no trial: the dashboard says whom to ask, not just "No trials yet".
    const admin = await newPage(browser);
    await signIn(admin.page, 'admin');
    const onTrials = await admin.page.evaluate(async () => {
      const csrf = (await (await fetch('/api/csrf-token')).json()).csrfToken as string;
      const trials = (await (await fetch('/api/userTrials/')).json()) as Array<{ trialId: number }>;
      const removed: Array<{ trialId: number; userEmail: string; userId: number }> = [];
      for (const { trialId } of trials) {
        const users = (await (await fetch(`/api/trialUsers/${trialId}`)).json()) as Array<{
          id: number;
          email: string;
        }>;
        const viewer = users.find((u) => u.email.startsWith('viewer@'));
        if (!viewer) continue;
        const res = await fetch('/api/trialUsers', {
          method: 'DELETE',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify({ userId: viewer.id, userEmail: viewer.email, trialId }),
        });
        if (res.ok) removed.push({ trialId, userEmail: viewer.email, userId: viewer.id });
      }
      return removed;
    });
    try {
      expect(onTrials.length).toBeGreaterThan(0);
      await page.goto('/');
      await shows(page.getByText('you have not been added to any yet', { exact: false }));
      expect(await page.getByText('No trials yet', { exact: true }).count()).toBe(0);
      await screenshot(page, 'viewer-no-trials');
    } finally {
      await admin.page.evaluate(async (list) => {
        const csrf = (await (await fetch('/api/csrf-token')).json()).csrfToken as string;
        for (const { trialId, userEmail } of list)
          await fetch('/api/trialUsers', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
            body: JSON.stringify({ trialId, userEmail }),
          });
      }, onTrials);
      await admin.context.close();
    }
    await context.close();
  });

  it('an Admin: add-participant hint, trial users without duplicates and with a way back, setup page, change password', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'admin');
    await openTrial(page, 'Home Blood Pressure Pilot');

    // The disabled Add Participant says why.
    await page.getByRole('button', { name: 'Add Participant' }).click();
    await page.waitForURL('**/AddParticipantPage');
    await shows(page.getByText('Fill in the fields marked *', { exact: false }));
    expect(await page.getByRole('button', { name: 'Add Participant' }).isDisabled()).toBe(true);
    await screenshot(page, 'add-participant-hint');
    await page.getByRole('button', { name: 'Back to trial' }).click();
    await page.waitForURL('**/TrialPage');

    // Manage Users: users already on the trial are not offered again; a link back to the trial.
    await page.getByRole('button', { name: 'Manage Users for this trial' }).click();
    await page.waitForURL('**/TrialUsers');
    await shows(page.getByRole('table', { name: 'Users' }).getByText('viewer@demo.trialwear.local'));
    await page.getByRole('button', { name: 'Add User' }).click();
    await page.getByRole('textbox', { name: 'User Email' }).click();
    await shows(page.getByRole('option', { name: /sysadmin@demo\.trialwear\.local/ }));
    expect(await page.getByRole('option', { name: /viewer@demo\.trialwear\.local/ }).count()).toBe(0);
    expect(await page.getByRole('option', { name: /coordinator@demo\.trialwear\.local/ }).count()).toBe(0);
    await screenshot(page, 'trial-users-add-choices');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await gone(page.getByRole('dialog'));
    await page.getByRole('button', { name: 'Back to trial' }).click();
    await page.waitForURL('**/TrialPage');
    await shows(page.getByRole('heading', { name: /Home Blood Pressure Pilot/ }));

    // A validated user on the setup page is told so, under a fitting title.
    await page.goto('/SFASetupPage');
    await shows(page.getByRole('heading', { name: 'Authenticator already set up' }));
    expect(await page.getByRole('heading', { name: 'Set up your authenticator' }).count()).toBe(0);
    await screenshot(page, 'sfa-setup-validated');

    // Change Password: a new attempt does not keep the last one's server error.
    await page.goto('/ChangePwdReqPage');
    await page.getByLabel('Current Password').fill('Wrong-pass1!');
    await page.getByLabel('New Password', { exact: true }).fill('Other-pass2!');
    await page.getByLabel('Confirm New Password').fill('Other-pass2!');
    await page.getByRole('button', { name: 'Change password' }).click();
    await shows(page.getByRole('alert'));
    await page.getByLabel('Confirm New Password').fill('Different-3!');
    await page.getByRole('button', { name: 'Change password' }).click();
    await shows(page.getByText(PASSWORD_FLOW_MESSAGES.changeMismatch));
    // The server's error of the last attempt is gone: the only alert left is the field's own error.
    expect(
      await page.getByRole('alert').filter({ hasNotText: PASSWORD_FLOW_MESSAGES.changeMismatch }).count(),
    ).toBe(0);
    await screenshot(page, 'change-password-errors');
    await context.close();
  });
});
