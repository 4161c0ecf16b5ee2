/*
 * The pages whose content the spec leaves open: /Trials, /ParticipantsPage
 * and /UserTeams (a second team is made with the admin CLI, as an operator
 * would, against the running portal's database).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { cli } from '../support/cli.js';
import { shows } from '../support/wait.js';

const rowsOf = (page: Page, table: string) => page.getByRole('table', { name: table }).locator('tbody tr');

describe('trials, participants and teams pages', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('/Trials lists the team trials with the dashboard actions', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'admin');
    await page.goto('/Trials');
    await shows(page.getByRole('heading', { name: 'Trials' }));
    await shows(page.getByRole('button', { name: 'Sleep and Activity Study' }));
    await shows(page.getByRole('button', { name: 'Home Blood Pressure Pilot' }));
    await shows(page.getByRole('button', { name: 'Add Trial' }));
    await shows(page.getByRole('button', { name: 'Edit trial 001' }));
    await screenshot(page, 'trials-page');
    await page.getByRole('button', { name: 'Home Blood Pressure Pilot' }).click();
    await page.waitForURL('**/TrialPage');
    await shows(page.getByRole('heading', { name: 'Trial #002 - Home Blood Pressure Pilot' }));
    await context.close();
  });

  it('/ParticipantsPage lists participants across trials with filter, paging and the trial column', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'admin');
    await page.goto('/ParticipantsPage');
    await shows(page.getByRole('heading', { name: 'Participants' }));
    await shows(page.getByText(/\(\d+ trials\)/)); // the demo's two, and any a journey before added
    await shows(rowsOf(page, 'Participants').first());
    // First page of 18 or more: polled, the first row can be the loading row while a busy server answers.
    await expect.poll(() => rowsOf(page, 'Participants').count(), { timeout: 15_000 }).toBe(10);
    await screenshot(page, 'participants-page');
    await page.getByLabel('Search').fill('Blood Pressure');
    await page.waitForFunction(
      () => document.querySelectorAll('table[aria-label="Participants"] tbody tr').length === 6,
    );
    await page.getByRole('button', { name: '#002 - Home Blood Pressure Pilot' }).first().click();
    await page.waitForURL('**/TrialPage');
    await shows(page.getByRole('heading', { name: 'Trial #002 - Home Blood Pressure Pilot' }));
    await context.close();
  });

  it('/UserTeams shows each team with its role, marks the current one and switches', async () => {
    await cli('create-team', '--name', 'Second Study Team');
    // Its own user: the demo accounts keep one team for the other journeys.
    await cli(
      'create-user',
      '--username',
      'teamhopper',
      '--email',
      'teamhopper@demo.trialwear.local',
      '--password',
      DEMO_PASSWORD,
      '--first-name',
      'Tess',
      '--last-name',
      'Hopper',
      '--team',
      'Demo Research Team',
      '--role',
      'User',
      '--no-sfa',
    );
    await cli(
      'add-membership',
      '--username',
      'teamhopper',
      '--team',
      'Second Study Team',
      '--role',
      'Viewer',
    );
    const { page, context } = await newPage(browser);
    await signIn(page, 'teamhopper');
    await page.goto('/UserTeams');
    const teams = page.getByRole('table', { name: 'Teams' });
    await shows(teams.getByText('Second Study Team'));
    await shows(teams.getByText('Current team'));
    await screenshot(page, 'user-teams');
    await page.getByRole('button', { name: 'Switch to Second Study Team' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/UserTeams');
    const current = teams.locator('tr', { has: page.getByText('Current team') });
    await shows(current.getByText('Second Study Team'));
    await shows(current.getByText('Viewer'));
    await page.getByRole('button', { name: /Switch to Demo/ }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('the navbar leads to Trials, Participants and Teams for every role, beside Dashboard', async () => {
    for (const role of ['viewer', 'admin']) {
      const { page, context } = await newPage(browser);
      await signIn(page, role);
      const nav = page.getByRole('navigation', { name: 'Main' });
      // Trials may carry the open study-health alerts' badge ("2 open study health alerts", issue #23).
      const labels = (await nav.getByRole('link').allTextContents()).map((l) =>
        l.replace(/\d+\+? open study health alerts?$/, ''),
      );
      expect(labels.slice(0, 4)).toEqual(['Dashboard', 'Trials', 'Participants', 'Teams']);
      await nav.getByRole('link', { name: /^Trials(\s*\d+\+? open study health alerts?)?$/ }).click();
      await page.waitForURL('**/Trials');
      await shows(page.getByRole('heading', { name: 'Trials' }));
      await nav.getByRole('link', { name: 'Participants' }).click();
      await page.waitForURL('**/ParticipantsPage');
      await shows(page.getByRole('heading', { name: 'Participants' }));
      await nav.getByRole('link', { name: 'Teams' }).click();
      await page.waitForURL('**/UserTeams');
      await shows(page.getByRole('table', { name: 'Teams' }));
      // The current page is marked for assistive technology too (NavLink's aria-current).
      expect(await nav.getByRole('link', { name: 'Teams' }).getAttribute('aria-current')).toBe('page');
      if (role === 'admin') await screenshot(page, 'navbar-study-links');
      await context.close();
    }
  });
});
