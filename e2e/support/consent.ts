/* The participant's side of a consent, from the emailed link to the provider's callback. */
import type { Browser, Page } from 'playwright-core';
import { newPage, screenshot } from './browser.js';
import { waitForMail } from './inbox.js';
import { shows } from './wait.js';

const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

export const PROVIDERS = {
  Fitbit: {
    consent: /https?:\/\/\S+\/PAFitbitConsentPage\?id=\d+&t=[\w-]+/,
    authorize: '**/sim/fitbit/oauth2/authorize**',
    callback: '**/fitbit-callback**',
  },
  Omron: {
    consent: /https?:\/\/\S+\/OmronConsentPage\?id=\d+&t=[\w-]+/,
    authorize: '**/sim/omron/connect/authorize**',
    callback: '**/omron-callback**',
  },
  Dexcom: {
    consent: /https?:\/\/\S+\/PAFitbitConsentPage\?id=\d+&t=[\w-]+&provider=dexcom/,
    authorize: '**/sim/dexcom/v2/oauth2/login**',
    callback: '**/dexcom-callback**',
  },
} as const;

export async function consentFromEmail(
  browser: Browser,
  email: string,
  decision: 'Allow' | 'Deny',
  brand: keyof typeof PROVIDERS = 'Fitbit',
) {
  const p = PROVIDERS[brand];
  const mail = unfold(await waitForMail((m) => m.includes(`To: ${email}`) && p.consent.test(unfold(m))));
  const link = new URL(mail.match(p.consent)![0]);
  const { page, context } = await newPage(browser); // the participant's own browser
  await page.goto(link.pathname + link.search);
  await page.getByRole('button', { name: `Continue to ${brand}` }).click();
  await page.waitForURL(p.authorize);
  await shows(page.getByRole('button', { name: 'Allow' }));
  await screenshot(page, `${brand.toLowerCase()}-authorize-${decision.toLowerCase()}`);
  await page.getByRole('button', { name: decision }).click();
  await page.waitForURL(p.callback);
  return { page, context };
}

/** Staff: the trial page of the trial, then Manage Participant on the row with this code. */
export async function openManageParticipant(
  page: Page,
  code: string,
  trialName = 'Home Blood Pressure Pilot',
) {
  await page.goto('/');
  await page.getByRole('button', { name: trialName }).click();
  await page.waitForURL('**/TrialPage');
  const row = page.getByRole('table', { name: 'Participants' }).locator('tbody tr', { hasText: code });
  await row.getByRole('button', { name: 'Manage Participant' }).click();
  await page.waitForURL('**/Participant');
  await shows(page.getByText('Devices Management'));
}
