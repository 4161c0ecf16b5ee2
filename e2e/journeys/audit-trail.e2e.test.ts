/*
 * A Sys_Admin sees the last verification of the audit chain: after an
 * operator runs `npm run cli -- verify-audit` against the running portal's
 * database, the Audit Trail page (Sys Admin menu) says the chain is intact,
 * with how many entries were checked. An Admin cannot open the page.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDir, launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { shows } from '../support/wait.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('audit trail page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('shows the last verification to a Sys_Admin, and nothing to an Admin', async () => {
    const run = spawnSync(process.execPath, ['apps/server/dist/cli/main.js', 'verify-audit'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir(), DATABASE_URL: '' },
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    const result = JSON.parse(run.stdout.trim()) as { ok: boolean; entries: number };
    expect(result.ok).toBe(true);

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
