/*
 * Fitbit through the Google Health API (issue #13), on servers of its own
 * (the shared server tests the legacy flow):
 *
 * 1. A portal configured for the legacy Fitbit Web API (FITBIT_API=legacy):
 *    SLP-003 links a Fitbit through the legacy consent.
 * 2. The same portal (same DATA_DIR and database) restarted with the default
 *    configuration — the Google Health API. The legacy Fitbit service no
 *    longer honours the old tokens (the restarted simulator forgot them, as
 *    Google's switch-off does).
 *    - SLP-004 links a Fitbit through Google's consent page; the card shows
 *      the link on the Google Health API with its tracker; the card's
 *      'Steps' opens the data page with the same person's steps per local
 *      date as the legacy API gives them (0 on a date the participant's
 *      zone has not reached yet: the page's week ends at the browser's today).
 *    - SLP-003's card says the participant must consent again (API: Fitbit
 *      Web API (legacy)); the consent request sends the Google link; after
 *      it the card shows the Google Health API.
 *
 * Step 1 and the restart are the file's fixture (beforeAll); each test then
 * works on its own participant. The export of a Google Health link (every
 * CSV row equal to the legacy generator's value of the same person) is an
 * integration test: apps/server/test/google-health/export-parity.int.test.ts.
 */
import { fitbitDay, fitbitUserId, fitbitUserTimezone } from '@trialwear/simulators';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, signIn } from '../support/browser.js';
import { type OwnServer, startOwnServer } from '../support/own-server.js';
import { shows } from '../support/wait.js';

const TRIAL = 'Sleep and Activity Study';
const LEGACY_CODE = 'SLP-003';
const CODE = 'SLP-004';
const CONSENT_LINK = /https?:\/\/\S+\/PAFitbitConsentPage\?id=\d+&t=[\w-]+/;

describe('Fitbit through the Google Health API', () => {
  let server: OwnServer | undefined;
  let browser: Browser;

  const open = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({
      baseURL: server!.baseUrl,
      viewport: { width: 1280, height: 860 },
    });
    return { context, page: await context.newPage() };
  };

  async function manageParticipant(page: Page, code: string) {
    await page.goto('/');
    await page.getByRole('button', { name: TRIAL }).click();
    await page.waitForURL('**/TrialPage');
    const row = page.getByRole('table', { name: 'Participants' }).locator('tbody tr', { hasText: code });
    await row.getByRole('button', { name: 'Manage Participant' }).click();
    await page.waitForURL('**/Participant');
    await shows(page.getByText('Devices Management'));
  }

  async function signedIn(username: 'admin' | 'coordinator' = 'admin') {
    const staff = await open();
    await signIn(staff.page, username);
    return staff;
  }

  /** Request authorization, then the participant's browser: emailed link → provider's page → Allow. */
  async function consent(staff: Page, code: string, authorizePath: string) {
    await staff.getByRole('button', { name: 'Request Authorization for Fitbit' }).click();
    await shows(staff.getByText('The consent link was emailed to the participant.'));
    const email = `${code.toLowerCase()}@participants.trialwear.local`;
    // The newest mail to the participant: the outbox is read newest first.
    const mail = await server!.mail((m) => m.includes(`To: ${email}`) && CONSENT_LINK.test(m));
    const link = new URL(mail.match(CONSENT_LINK)![0]);
    const participant = await open();
    await participant.page.goto(link.pathname + link.search);
    await participant.page.getByRole('button', { name: 'Continue to Fitbit' }).click();
    await participant.page.waitForURL(`**${authorizePath}**`);
    await shows(participant.page.getByRole('button', { name: 'Allow' }));
    return { mail, participant };
  }

  async function allow(participant: { context: BrowserContext; page: Page }) {
    await participant.page.getByRole('button', { name: 'Allow' }).click();
    await participant.page.waitForURL('**/fitbit-callback**');
    await shows(
      participant.page.getByText('Your Fitbit is now connected to your study. You may close this page.'),
    );
    await participant.context.close();
  }

  // The fixture: SLP-003 linked on a portal that used the legacy API, then that portal restarted
  // with the default configuration (the Google Health API), as an operator switches.
  beforeAll(async () => {
    browser = await launchBrowser();
    const legacy = await startOwnServer({ FITBIT_API: 'legacy' });
    server = legacy;
    const staff = await signedIn();
    await manageParticipant(staff.page, LEGACY_CODE);
    const { participant } = await consent(staff.page, LEGACY_CODE, '/sim/fitbit/oauth2/authorize');
    await allow(participant);
    await staff.page.reload();
    await shows(staff.page.getByText(/^Fitbit · Authorized on \d{4}-\d{2}-\d{2}$/));
    await shows(staff.page.getByText('API: Fitbit Web API (legacy)'));
    await staff.context.close();
    await legacy.stop({ keepData: true });
    // FITBIT_API unset: the default back end, the Google Health API (its simulator mounted in the portal).
    server = await startOwnServer({ FITBIT_API: undefined }, { dataDir: legacy.dataDir });
  }, 360_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it(
    'default configuration: consent through Google → the card with the API → the steps page',
    { timeout: 240_000 },
    async () => {
      const staff = await signedIn();
      const { page } = staff;
      await manageParticipant(page, CODE);
      await shows(page.getByText('Fitbit · Not authorized'));
      const { mail, participant } = await consent(page, CODE, '/sim/google-health/o/oauth2/v2/auth');
      expect(mail).toContain('sign in with the Google account your Fitbit uses');
      const authorize = new URL(participant.page.url());
      expect(authorize.searchParams.get('access_type')).toBe('offline');
      expect(authorize.searchParams.get('prompt')).toBe('consent');
      await screenshot(participant.page, 'google-health-consent');
      await allow(participant);

      await page.reload();
      await shows(page.getByText(/^Fitbit · Authorized on \d{4}-\d{2}-\d{2}$/));
      await shows(page.getByText('API: Google Health API'));
      await shows(page.getByText(/^Battery \d+% · /));
      await shows(page.getByText(/^Last sync: \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/));
      await shows(page.getByText(/^Fitbit (Charge 6|Inspire 3|Sense 2|Versa 4)$/));
      await screenshot(page, 'google-health-device-card');

      await page.getByRole('button', { name: 'Steps' }).click();
      await page.waitForURL('**/FitbitParticipantDataPage**');
      const participantId = Number(
        (await page.getByText(/^Participant ID: \d+$/).textContent())!.replace(/\D/g, ''),
      );
      // The same person as on the legacy API: the legacy simulator's generator gives the values.
      const user = fitbitUserId(`TRIALWEARSIM:${participantId}`);
      const table = page.getByRole('table', { name: 'Steps table' });
      await shows(table, 20_000);
      const rows = await table
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')),
        );
      expect(rows).toHaveLength(7);
      // The page's week ends at the browser's today (UTC here). A later date than the participant's own
      // local today is not lived yet: Google has no data for it, shown as 0 as Fitbit shows a day
      // without data (the legacy generator would give the future day's values).
      const localToday = new Intl.DateTimeFormat('en-CA', { timeZone: fitbitUserTimezone(user).tz }).format(
        new Date(),
      );
      for (const [date, text] of rows)
        expect(text, date).toBe(
          (date! > localToday ? 0 : fitbitDay(user, date!).steps).toLocaleString('en-US'),
        );
      await shows(page.getByRole('img', { name: /^Steps \(steps\), / }));
      await screenshot(page, 'google-health-steps');
      await staff.context.close();
    },
  );

  it(
    'the legacy link fails after the switch: the card asks for a new consent, which goes through Google',
    {
      timeout: 240_000,
    },
    async () => {
      const staff = await signedIn();
      const { page } = staff;
      await manageParticipant(page, LEGACY_CODE);
      // The device check finds the legacy grant refused: the link is marked failed.
      await shows(page.getByText('Authentication required').or(page.getByText('Consent needed')));
      await page.reload();
      await shows(page.getByText('Consent needed'));
      await shows(
        page.getByText(
          'The legacy Fitbit link stopped working. The participant must consent again: Request Authorization sends the link to the Google Health API consent.',
        ),
      );
      await shows(page.getByText('API: Fitbit Web API (legacy)'));
      await screenshot(page, 'google-health-reconsent-needed');
      const { participant } = await consent(page, LEGACY_CODE, '/sim/google-health/o/oauth2/v2/auth');
      await allow(participant);
      await page.reload();
      await shows(page.getByText(/^Fitbit · Authorized on \d{4}-\d{2}-\d{2}$/));
      await shows(page.getByText('API: Google Health API'));
      expect(await page.getByText('Consent needed').count()).toBe(0);
      await shows(page.getByText(/^Battery \d+% · /));
      await screenshot(page, 'google-health-reconsented');
      await staff.context.close();
    },
  );
});
