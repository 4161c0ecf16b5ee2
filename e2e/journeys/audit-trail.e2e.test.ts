/*
 * A Sys_Admin sees the last verification of the audit chain: after an
 * operator runs `npm run cli -- verify-audit` against the running portal's
 * database, the Audit Trail page (Sys Admin menu) says the chain is intact,
 * with how many entries were checked. An Admin cannot open the page.
 * What the command answers (exit code, JSON, a break found) and what the API
 * answers each role are the integration test's: platform/audit-trail.int.test.ts.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { cli } from '../support/cli.js';
import { shows } from '../support/wait.js';

describe('audit trail page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('shows the last verification to a Sys_Admin, and nothing to an Admin', async () => {
    // The operator's run (the helper fails the test if the command does).
    const result = (await cli('verify-audit')) as { entries: number };

    const { page, context } = await newPage(browser);
    await signIn(page, 'sysadmin');
    await page.goto('/AuditTrail');
    await shows(page.getByRole('heading', { name: 'Audit Trail' }));
    await shows(page.getByText('Intact'));
    const table = page.getByRole('table', { name: 'Last verification' });
    await shows(table.getByText('the command line (verify-audit)'));
    expect(
      Number(
        (await table.locator('tr', { hasText: 'Entries checked' }).locator('td').innerText()).replace(
          /\D/g,
          '',
        ),
      ),
    ).toBeGreaterThanOrEqual(result.entries);
    await screenshot(page, 'audit-trail');
    await context.close();

    const admin = await newPage(browser);
    await signIn(admin.page, 'admin');
    await admin.page.goto('/AuditTrail');
    await admin.page.waitForURL('**/not-authorized');
    await admin.context.close();
  });
});
