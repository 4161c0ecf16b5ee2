import { ACCESS_MESSAGES, DB_INFO_TITLE } from '@trialwear/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { shows } from '../support/wait.js';

const path = (url: string) => new URL(url).pathname;

describe('route guards', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('signed out: staff routes go to the login page; public pages and not-found render', async () => {
    const { page, context } = await newPage(browser);
    for (const route of ['/', '/TrialPage', '/DbInfoPage', '/DataExport']) {
      await page.goto(route);
      await page.waitForURL('**/LoginPage');
      expect(path(page.url())).toBe('/LoginPage');
    }
    await shows(page.getByRole('link', { name: 'Login' }));
    await shows(page.getByLabel('Username'));
    await screenshot(page, 'login-page');
    await page.goto('/ContactUsForm/');
    expect(path(page.url())).toBe('/ContactUsForm/');
    await page.goto('/no/such/page');
    await shows(page.getByText(/page not found/i));
    await screenshot(page, 'not-found');
    await context.close();
  });

  it('Viewer: no admin routes, no Data Export; login page sends home', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'viewer');
    await shows(page.getByRole('link', { name: 'Dashboard' }));
    expect(await page.getByRole('link', { name: 'Data Export' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Data Management' }).count()).toBe(0);
    await shows(page.getByRole('heading', { name: 'Dashboard' }));
    await screenshot(page, 'viewer-home');

    for (const route of ['/DataExport', '/Participant', '/TrialUsers', '/DbInfoPage']) {
      await page.goto(route);
      await page.waitForURL('**/not-authorized');
    }
    await shows(page.getByRole('heading', { name: 'Not authorized' }));
    await screenshot(page, 'not-authorized');
    await page.getByRole('button', { name: 'Go home' }).click();
    await page.waitForURL((u) => u.pathname === '/');

    await page.goto('/LoginPage');
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });

  it('Admin: trial users allowed, Sys_Admin-only pages refused', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'admin');
    await shows(page.getByRole('link', { name: 'Data Export' }));
    await page.goto('/TrialUsers');
    expect(path(page.url())).toBe('/TrialUsers');
    for (const route of ['/DbInfoPage', '/DeviceMetricsManager', '/SignUpApprovalPage', '/ParticipantRaw']) {
      await page.goto(route);
      await page.waitForURL('**/not-authorized');
    }
    await context.close();
  });

  it('Sys_Admin passes every check and sees the Sys Admin menu', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'sysadmin');
    await shows(page.getByRole('link', { name: 'Data Management' }));
    for (const route of [
      '/DbInfoPage',
      '/DeviceMetricsManager',
      '/TrialUsers',
      '/DataExport',
      '/TeamDataRetention',
    ]) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
      expect(path(page.url())).toBe(route);
      expect(await page.getByText(ACCESS_MESSAGES.noRole).count()).toBe(0);
    }
    await page.goto('/DbInfoPage');
    await shows(page.getByRole('heading', { name: DB_INFO_TITLE }));
    await page.getByRole('button', { name: /Sys Admin/ }).click();
    await shows(page.getByRole('menuitem', { name: 'Database Info' }));
    await screenshot(page, 'sysadmin-dbinfo');
    await context.close();
  });

  it('profile menu shows the user and logs out', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'coordinator');
    await page
      .getByRole('button', { name: /coordinator|cora/i })
      .first()
      .click();
    await shows(page.getByText('Demo Research Team'));
    await shows(page.getByText('User', { exact: true }));
    await screenshot(page, 'profile-menu');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/LoginPage');
    await page.goto('/');
    await page.waitForURL('**/LoginPage');
    await context.close();
  });
});
