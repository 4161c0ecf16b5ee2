import { CONTACT_MESSAGES } from '@trialwear/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot } from '../support/browser.js';
import { waitForMail } from '../support/inbox.js';
import { gone, shows } from '../support/wait.js';

describe('Contact Us, end to end', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('shows every rule, then sends the message to the support address', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/LoginPage');
    await page
      .getByRole('link', { name: /contact/i })
      .first()
      .click();
    await page.waitForURL('**/ContactUsForm/');

    await page.getByRole('button', { name: 'Send' }).click();
    for (const message of [
      CONTACT_MESSAGES.firstNameRequired,
      CONTACT_MESSAGES.lastNameRequired,
      CONTACT_MESSAGES.emailRequired,
      CONTACT_MESSAGES.subjectRequired,
      CONTACT_MESSAGES.messageRequired,
    ]) {
      await shows(page.getByText(message, { exact: true }));
    }
    await screenshot(page, 'contact-errors');

    await page.getByLabel('First Name').fill('Rosalind');
    await page.getByLabel('Last Name').fill('Franklin');
    await page.getByLabel('Email').fill('rosalind@');
    await page.getByLabel('Subject').fill('Access for a new site');
    await page.getByLabel('Message').fill('We would like to add a second site to our trial.');
    await page.getByRole('button', { name: 'Send' }).click();
    await shows(page.getByText(CONTACT_MESSAGES.emailInvalid, { exact: true }));

    await page.getByLabel('Email').fill('rosalind@kings.example');
    await page.getByRole('button', { name: 'Send' }).click();
    const success = page.getByText(CONTACT_MESSAGES.sent, { exact: true });
    await shows(success);
    await screenshot(page, 'contact-sent');

    const mail = await waitForMail((raw) => raw.includes('Access for a new site'));
    expect(mail).toContain('To: support@trialwear.test');
    expect(mail).toContain('Reply-To: rosalind@kings.example');
    expect(mail).toContain('We would like to add a second site to our trial.');

    // The success message hides after 5 s and the form is empty again.
    await gone(success, 8000);
    expect(await page.getByLabel('First Name').inputValue()).toBe('');
    await context.close();
  });

  it('says "Message could not be sent!" when the mail server refuses the message', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/ContactUsForm/');
    await page.getByLabel('First Name').fill('Marie');
    await page.getByLabel('Last Name').fill('Curie');
    await page.getByLabel('Email').fill('marie@radium.example');
    await page.getByLabel('Subject').fill('Mailbox test');
    // The test SMTP server answers 552 to a message containing REJECT-ME.
    await page.getByLabel('Message').fill('Please REJECT-ME so the failure path shows.');
    await page.getByRole('button', { name: 'Send' }).click();
    await shows(page.getByText(CONTACT_MESSAGES.failed, { exact: true }));
    expect(await page.getByText(CONTACT_MESSAGES.sent, { exact: true }).count()).toBe(0);
    await screenshot(page, 'contact-failed');
    await context.close();
  });
});
