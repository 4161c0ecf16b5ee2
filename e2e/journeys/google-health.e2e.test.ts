/*
 * Fitbit through the Google Health API with the default configuration
 * (issue #13): a portal started without FITBIT_API (its own server: the
 * shared one tests the legacy flow). Staff request a Fitbit authorization;
 * the participant opens the emailed link, continues to Google's consent page
 * (the Google Health simulator) and allows; the Manage Participant card
 * shows the link on the Google Health API with its paired tracker; the
 * card's 'Steps' opens the data page with the same person's steps per local
 * date as the legacy API gives them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fitbitDay, fitbitUserId } from '@trialwear/simulators';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, launchBrowser, screenshot } from '../support/browser.js';
import { type OwnServer, startOwnServer } from '../support/own-server.js';
import { shows } from '../support/wait.js';

const TRIAL = 'Sleep and Activity Study';
const CODE = 'SLP-004';
const SHOTS = '/tmp/shots-wt-ghadapter';

async function shot(page: Page, name: string) {
  await screenshot(page, name);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

describe('Fitbit through the Google Health API (default configuration)', () => {
  let server: OwnServer;
  let browser: Browser;
  let staff: { context: BrowserContext; page: Page };

  const open = async () => {
    const context = await browser.newContext({
      baseURL: server.baseUrl,
      viewport: { width: 1280, height: 860 },
    });
    return { context, page: await context.newPage() };
  };

  beforeAll(async () => {
    // Unset: the default back end. The simulators (Google Health included) are mounted in the portal.
    server = await startOwnServer({ FITBIT_API: undefined });
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await staff?.context.close();
    await browser?.close();
    await server?.stop();
  });

  it('consent through Google → the card shows the Google Health API and the tracker → the steps page', async () => {
    staff = await open();
    const { page } = staff;
    await page.goto('/LoginPage');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: /log ?in|sign ?in/i }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: TRIAL }).click();
    await page.waitForURL('**/TrialPage');
    const row = page.getByRole('table', { name: 'Participants' }).locator('tbody tr', { hasText: CODE });
    await row.getByRole('button', { name: 'Manage Participant' }).click();
    await page.waitForURL('**/Participant');
    await shows(page.getByText('Fitbit · Not authorized'));
    await page.getByRole('button', { name: 'Request Fitbit Authorization' }).click();
    await shows(page.getByText('The consent link was emailed to the participant.'));

    const email = `${CODE.toLowerCase()}@participants.trialwear.local`;
    const mail = await server.mail((m) => m.includes(`To: ${email}`) && m.includes('PAFitbitConsentPage'));
    expect(mail).toContain('sign in with the Google account your Fitbit uses');
    const link = new URL(mail.match(/https?:\/\/\S+\/PAFitbitConsentPage\?id=\d+&t=[\w-]+/)![0]);
    const participant = await open();
    await participant.page.goto(link.pathname + link.search);
    await participant.page.getByRole('button', { name: 'Continue to Fitbit' }).click();
    await participant.page.waitForURL('**/sim/google-health/o/oauth2/v2/auth**');
    const authorize = new URL(participant.page.url());
    expect(authorize.searchParams.get('access_type')).toBe('offline');
    expect(authorize.searchParams.get('prompt')).toBe('consent');
    await shows(participant.page.getByRole('button', { name: 'Allow' }));
    await shot(participant.page, 'google-health-consent');
    await participant.page.getByRole('button', { name: 'Allow' }).click();
    await participant.page.waitForURL('**/fitbit-callback**');
    await shows(
      participant.page.getByText('Your Fitbit is now connected to your study. You may close this page.'),
    );
    await participant.context.close();

    await page.reload();
    await shows(page.getByText(/^Fitbit · Authorized on \d{4}-\d{2}-\d{2}$/));
    await shows(page.getByText('API: Google Health API'));
    await shows(page.getByText(/^Battery \d+% · /));
    await shows(page.getByText(/^Last sync: \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/));
    await shows(page.getByText(/^Fitbit (Charge 6|Inspire 3|Sense 2|Versa 4)$/));
    await shot(page, 'google-health-device-card');

    await page.getByRole('button', { name: 'Steps' }).click();
    await page.waitForURL('**/FitbitParticipantDataPage**');
    const pid = Number((await page.getByText(/^Participant ID: \d+$/).textContent())!.replace(/\D/g, ''));
    // The same person as on the legacy API: the legacy simulator's generator gives the values.
    const user = fitbitUserId(`TRIALWEARSIM:${pid}`);
    const table = page.getByRole('table', { name: 'Steps table' });
    await shows(table, 20_000);
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')),
      );
    expect(rows).toHaveLength(7);
    for (const [date, text] of rows)
      expect(text, date).toBe(fitbitDay(user, date!).steps.toLocaleString('en-US'));
    await shows(page.getByRole('img', { name: /^Steps \(steps\), / }));
    await shot(page, 'google-health-steps');
  });
});
