import { PASSWORD_FLOW_MESSAGES, SFA_MESSAGES, SIGNUP_MESSAGES } from '@trialwear/contract';
import { authenticator } from 'otplib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { waitForMail } from '../support/inbox.js';
import { shows } from '../support/wait.js';

const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
const PASSWORD = 'Newcomer-pw1!';

async function fillLogin(page: import('playwright-core').Page, username: string, password: string) {
  await page.goto('/LoginPage');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * A newcomer's way in: the Sys_Admin sends the approval, the emailed link opens the sign-up
 * form, the first sign-in sets up the authenticator. Returns its secret. With `checks`, each
 * validation message on the way is shown first.
 */
async function joinWithAuthenticator(
  browser: Browser,
  who: { email: string; username: string },
  checks = false,
): Promise<string> {
  const { email: EMAIL, username: USERNAME } = who;
  const admin = await newPage(browser);
  await signIn(admin.page, 'sysadmin');
  await admin.page.goto('/SignUpApprovalPage');
  if (checks) {
    await admin.page.getByRole('button', { name: 'Send approval' }).click();
    await shows(admin.page.getByText('Email is required', { exact: true }));
    await shows(admin.page.getByText(SIGNUP_MESSAGES.teamRequired, { exact: true }));
  }
  await admin.page.getByLabel('Email').fill(EMAIL);
  await admin.page.getByRole('textbox', { name: 'Role' }).click();
  await admin.page.getByRole('option', { name: 'User', exact: true }).click();
  await admin.page.getByRole('textbox', { name: 'Team' }).click();
  await admin.page.getByRole('option', { name: /Demo Research Team/ }).click();
  await admin.page.getByRole('button', { name: 'Send approval' }).click();
  await shows(admin.page.getByText(SIGNUP_MESSAGES.approvalSent));
  if (checks) await screenshot(admin.page, 'signup-approval');
  await admin.context.close();

  const mail = unfold(await waitForMail((m) => m.includes(`To: ${EMAIL}`) && m.includes('SignupValidation')));
  const link = mail.match(/https?:\/\/\S+\/SignupValidation\?token=[\w-]+/)![0];
  const { page, context } = await newPage(browser);
  await page.goto(new URL(link).pathname + new URL(link).search);
  await page.waitForURL('**/SignupPage');
  await shows(page.getByText(`${EMAIL} · Demo Research Team · User`));
  if (checks) {
    await page.getByRole('button', { name: 'Sign up' }).click();
    await shows(page.getByText(SIGNUP_MESSAGES.firstNameRequired, { exact: true }));
    await shows(page.getByText(SIGNUP_MESSAGES.acceptTerms, { exact: true }));
    await shows(page.getByText(SIGNUP_MESSAGES.acceptPrivacy, { exact: true }));
  }
  await page.getByLabel('First Name').fill('Nova');
  await page.getByLabel('Last Name').fill('Comer');
  await page.getByLabel('Username').fill(USERNAME);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByLabel('Organization').fill('Journey Lab');
  await page.getByLabel(/I accept the Terms/).check();
  await page.getByLabel(/I accept the Privacy Policy/).check();
  if (checks) await screenshot(page, 'signup-form');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await shows(page.getByText(SIGNUP_MESSAGES.success));
  await page.waitForURL('**/LoginPage'); // after 1.5 s

  await fillLogin(page, USERNAME, PASSWORD);
  await page.waitForURL('**/SFASetupPage');
  await shows(page.getByRole('img', { name: 'Authenticator QR code' }));
  const secret = (await page.getByTestId('sfa-key').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  if (checks) {
    await screenshot(page, 'sfa-setup');
    await page.getByLabel('Code').fill('12ab');
    await page.getByRole('button', { name: 'Verify' }).click();
    await shows(page.getByText(SFA_MESSAGES.digits, { exact: true }));
  }
  await page.getByLabel('Code').fill(authenticator.generate(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/LoginPage');
  await shows(page.getByText('Your authenticator is set up. Please log in again.'));
  await context.close();
  return secret;
}

// Each test signs up its own newcomer, so they pass in any order.
describe('identity journeys', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('approval → emailed link → sign-up → first sign-in with authenticator setup → logout on verify', async () => {
    await joinWithAuthenticator(
      browser,
      { email: 'journey.newcomer@lab.example', username: 'newcomer' },
      true,
    );
  });

  it('sign in again: validate with the authenticator and remember the device', async () => {
    const USERNAME = 'newcomer2';
    const secret = await joinWithAuthenticator(browser, {
      email: 'journey.newcomer2@lab.example',
      username: USERNAME,
    });
    const { page, context } = await newPage(browser);
    await fillLogin(page, USERNAME, PASSWORD);
    await page.waitForURL('**/SFAValidatePage');
    // The next step's code (one step of drift is allowed; each step works once): not the setup's code.
    await page.getByLabel('Code').fill(authenticator.clone({ epoch: Date.now() + 30_000 }).generate(secret));
    await page.getByLabel(SFA_MESSAGES.rememberDevice).check();
    await screenshot(page, 'sfa-validate');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await shows(page.getByRole('heading', { name: 'Dashboard' }));
    // Log out and in again: the remembered device skips the second factor.
    await page.getByRole('button', { name: /Profile menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/LoginPage');
    await fillLogin(page, USERNAME, PASSWORD);
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });

  it('email-code sign-in reads the code from the SMTP server', async () => {
    const [EMAIL, USERNAME] = ['journey.newcomer3@lab.example', 'newcomer3'];
    await joinWithAuthenticator(browser, { email: EMAIL, username: USERNAME });
    const { page, context } = await newPage(browser); // a fresh browser: no remembered device
    await fillLogin(page, USERNAME, PASSWORD);
    await page.waitForURL('**/SFAValidatePage');
    await page.getByRole('link', { name: 'Send me a code by email instead' }).click();
    await page.waitForURL('**/SFASendCodeViaMsgPage');
    const since = Date.now();
    await page.getByRole('button', { name: 'Send code' }).click();
    await shows(page.getByText(SFA_MESSAGES.codeSent));
    const mail = await waitForMail(
      (m) => m.includes(`To: ${EMAIL}`) && m.includes('sign-in code') && Date.now() - since < 20_000,
    );
    const code = unfold(mail).match(/code is: (\d{6})/)![1]!;
    await page.getByLabel('Code').fill(code);
    await screenshot(page, 'sfa-email-code');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });

  it('forgot → reset → sign in with the new password', async () => {
    const [EMAIL, USERNAME] = ['journey.newcomer4@lab.example', 'newcomer4'];
    await joinWithAuthenticator(browser, { email: EMAIL, username: USERNAME });
    const { page, context } = await newPage(browser);
    await page.goto('/LoginPage');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/ResetPwdReqPage');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await shows(page.getByText(PASSWORD_FLOW_MESSAGES.resetRequested));
    const mail = unfold(
      await waitForMail((m) => m.includes(`To: ${EMAIL}`) && m.includes('ResetPasswordPage')),
    );
    const link = new URL(mail.match(/https?:\/\/\S+\/ResetPasswordPage\?token=[\w-]+/)![0]);
    await page.goto(link.pathname + link.search);
    await page.getByLabel('New Password', { exact: true }).fill('Fresh-pass9!');
    await page.getByLabel('Confirm New Password').fill('Fresh-pass8!');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await shows(page.getByText(PASSWORD_FLOW_MESSAGES.resetMismatch, { exact: true }));
    await page.getByLabel('Confirm New Password').fill('Fresh-pass9!');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await shows(page.getByText(PASSWORD_FLOW_MESSAGES.newPasswordSet));
    await screenshot(page, 'reset-done');
    // The link works once.
    await page.goto(link.pathname + link.search);
    await shows(page.getByText(PASSWORD_FLOW_MESSAGES.resetValidationFailed));
    await page.goto('/ResetPasswordPage');
    await shows(page.getByText(PASSWORD_FLOW_MESSAGES.resetKeyMissing));
    // The old password no longer works; the new one does (this browser has no remembered device).
    await fillLogin(page, USERNAME, PASSWORD);
    await shows(page.getByText(/Login failed: Invalid username or password/));
    await fillLogin(page, USERNAME, 'Fresh-pass9!');
    await page.waitForURL('**/SFAValidatePage');
    await context.close();
  });
});
