/*
 * The Fitbit data pages journey's world: an Admin requests a Fitbit consent
 * for a demo participant, who allows it from the emailed link; the device
 * card's 'Steps' opens the data page, whose participant id and navigation
 * state (participant and trial) the journey's tests reuse. `openPage` opens
 * a new tab of the Admin's session at a page of the app as the data page's
 * links reach it, so each test starts from its own page.
 */
import { fitbitUserId } from '@trialwear/simulators';
import type { Browser, Page } from 'playwright-core';
import { newPage, screenshot, signIn } from './browser.js';
import { consentFromEmail, openManageParticipant } from './consent.js';
import { shows } from './wait.js';

export interface FitbitJourneyWorld {
  staff: Awaited<ReturnType<typeof newPage>>;
  /** The participant's id and the simulator's user for them. */
  pid: number;
  user: string;
  /** The data page's navigation state (participant and trial). */
  navState: unknown;
  openPage: (pathAndSearch?: string) => Promise<Page>;
  /** Goes to a page of the app in this tab as the data page's links do (with its navigation state). */
  navigate: (page: Page, pathAndSearch: string) => Promise<void>;
}

export async function fitbitJourneyWorld(
  browser: Browser,
  opts: { trial: string; code: string },
): Promise<FitbitJourneyWorld> {
  const staff = await newPage(browser);
  await signIn(staff.page, 'admin');
  await openManageParticipant(staff.page, opts.code, opts.trial);
  await staff.page.getByRole('button', { name: 'Request Authorization for Fitbit' }).click();
  await shows(staff.page.getByText('The consent link was emailed to the participant.'));
  const participant = await consentFromEmail(
    browser,
    `${opts.code.toLowerCase()}@participants.trialwear.local`,
    'Allow',
  );
  await shows(
    participant.page.getByText('Your Fitbit is now connected to your study. You may close this page.'),
  );
  await participant.context.close();
  await staff.page.reload();
  await shows(staff.page.getByText(/^Fitbit · Authorized on /));
  await screenshot(staff.page, 'fitbit-data-linked-card');
  await shows(staff.page.getByRole('button', { name: 'Steps' }));
  await staff.page.getByRole('button', { name: 'Steps' }).click();
  await staff.page.waitForURL('**/FitbitParticipantDataPage**');
  const idText = await staff.page.getByText(/^Participant ID: \d+$/).textContent();
  const pid = Number(idText!.replace(/\D/g, ''));
  const navState = await staff.page.evaluate(() => (history.state as { usr: unknown }).usr);
  await staff.page.close();

  const navigate = (page: Page, to: string) =>
    page.evaluate(
      ({ usr, to }) => {
        history.pushState({ usr, key: to, idx: history.length }, '', to);
        dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
      },
      { usr: navState, to },
    );
  async function openPage(pathAndSearch = '/FitbitParticipantDataPage') {
    const page = await staff.context.newPage();
    await page.goto('/');
    await shows(page.getByRole('heading', { name: 'Dashboard' }));
    await navigate(page, pathAndSearch);
    return page;
  }
  return { staff, pid, user: fitbitUserId(`TRIALWEARSIM:${pid}`), navState, openPage, navigate };
}
