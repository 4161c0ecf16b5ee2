/*
 * Issue #9 in the browser: the lock message at sign-in and the Sys_Admin's
 * Locked Accounts page with its Unlock button; Reset Second Factor asking
 * for the current password in a modal; Log out everywhere. (The participant
 * sign-up answer that does not tell whether an email has an account is the
 * server's: signup.int.test.ts; the sign-up page itself is in the
 * participant-portal journey.)
 */
import {
  LOCKOUT_MESSAGES,
  LOGIN_MESSAGES,
  PASSWORD_FLOW_MESSAGES,
  RESET_SFA_MESSAGES,
  SESSION_MESSAGES,
  SFA_MESSAGES,
} from '@trialwear/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { waitForMail } from '../support/inbox.js';
import { gone, shows } from '../support/wait.js';

async function fillLogin(page: Page, username: string, password: string) {
  await page.goto('/LoginPage');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
/** Mantine modals fade in and out (200 ms): let the animation end before a screenshot. */
const settle = (page: Page) => page.waitForTimeout(400);
const openProfileMenu = (page: Page) => page.getByRole('button', { name: /Profile menu/ }).click();

describe('account security journeys', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('five wrong passwords lock the account; the Sys_Admin unlocks it on Locked Accounts', async () => {
    const { page, context } = await newPage(browser);
    for (let i = 0; i < 4; i++) {
      await fillLogin(page, 'viewer', 'Wrong-pass1!');
      await shows(page.getByText(`Login failed: ${LOGIN_MESSAGES.invalidCredentials}`));
    }
    await fillLogin(page, 'viewer', 'Wrong-pass1!');
    await shows(page.getByText(`Login failed: ${SFA_MESSAGES.locked}`));
    // The right password during the lock gets the same lock message (nobody learns it was right).
    await fillLogin(page, 'viewer', DEMO_PASSWORD);
    await shows(page.getByText(`Login failed: ${SFA_MESSAGES.locked}`));
    await shows(page.getByText(LOCKOUT_MESSAGES.loginHint));
    await screenshot(page, 'login-locked');
    const mail = await waitForMail(
      (m) => m.includes('To: viewer@demo.trialwear.local') && m.includes('was locked'),
    );
    expect(unfold(mail)).toMatch(/\/ResetPasswordPage\?token=[\w-]+/);

    const admin = await newPage(browser);
    await signIn(admin.page, 'sysadmin');
    await admin.page.getByRole('button', { name: /Sys Admin/ }).click();
    await admin.page.getByRole('menuitem', { name: 'Locked Accounts' }).click();
    await admin.page.waitForURL('**/LockedAccounts');
    await shows(admin.page.getByRole('cell', { name: 'viewer', exact: true }));
    await shows(admin.page.getByRole('cell', { name: 'viewer@demo.trialwear.local' }));
    await screenshot(admin.page, 'locked-accounts');
    await admin.page.getByRole('button', { name: 'Unlock viewer' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Unlock account?' });
    await shows(dialog.getByText('viewer@demo.trialwear.local', { exact: false }));
    await settle(admin.page);
    await screenshot(admin.page, 'locked-accounts-unlock');
    await dialog.getByRole('button', { name: 'Unlock' }).click();
    await shows(admin.page.getByText(`viewer: ${LOCKOUT_MESSAGES.unlocked}`));
    await shows(admin.page.getByText(LOCKOUT_MESSAGES.noneLocked));
    await gone(dialog);
    await screenshot(admin.page, 'locked-accounts-after-unlock');
    await admin.context.close();

    await signIn(page, 'viewer');
    await context.close();
  });

  it('Reset Second Factor asks for the current password in a modal', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'admin');
    await openProfileMenu(page);
    await page.getByRole('menuitem', { name: 'Reset Second Factor' }).click();
    const dialog = page.getByRole('dialog', { name: RESET_SFA_MESSAGES.title });
    await shows(dialog);
    await shows(dialog.getByText(RESET_SFA_MESSAGES.confirm));
    await dialog.getByRole('button', { name: 'Reset second factor' }).click();
    await shows(dialog.getByText(PASSWORD_FLOW_MESSAGES.currentRequired, { exact: true }));
    await dialog.getByLabel('Current Password').fill('Not-my-pass1!');
    await dialog.getByRole('button', { name: 'Reset second factor' }).click();
    await shows(dialog.getByText(PASSWORD_FLOW_MESSAGES.wrongCurrent));
    await settle(page);
    await screenshot(page, 'reset-sfa-modal');
    await dialog.getByLabel('Current Password').fill(DEMO_PASSWORD);
    await dialog.getByRole('button', { name: 'Reset second factor' }).click();
    // The demo admin needs no second factor: the session stays, on the dashboard.
    await gone(dialog);
    await page.waitForURL((u) => u.pathname === '/');
    await shows(page.getByRole('heading', { name: 'Dashboard' }));
    await context.close();
  });

  it('Log out everywhere ends the sessions in every browser', async () => {
    const here = await newPage(browser);
    const there = await newPage(browser);
    await signIn(here.page, 'coordinator');
    await signIn(there.page, 'coordinator');
    await openProfileMenu(here.page);
    await here.page.getByRole('menuitem', { name: 'Log out everywhere' }).click();
    const dialog = here.page.getByRole('dialog', { name: 'Log out everywhere?' });
    await shows(dialog.getByText(SESSION_MESSAGES.logoutEverywhereConfirm));
    await settle(here.page);
    await screenshot(here.page, 'logout-everywhere-modal');
    await dialog.getByRole('button', { name: 'Log out everywhere' }).click();
    await here.page.waitForURL('**/LoginPage');
    await shows(here.page.getByText(SESSION_MESSAGES.loggedOutEverywhere));
    await screenshot(here.page, 'logout-everywhere-done');
    await there.page.reload();
    await there.page.waitForURL('**/LoginPage');
    await here.context.close();
    await there.context.close();
  });
});
