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
 *    - A coordinator exports SLP-004's steps and floors of a few recent local
 *      days on /DataExport (the team stores both: set in SQL, as the metrics
 *      manager and the retention page would); the job, which fetches the
 *      range through the sync path over the link's own API, reaches
 *      completed in the jobs panel; the downloaded ZIP's CSVs hold, per
 *      local date, the legacy simulator's values for the same person, read
 *      by the job over the Google Health link (its fetch coverage and the
 *      readings' provider say so).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXPORT_MESSAGES } from '@trialwear/contract';
import { fitbitDay, fitbitUserId, fitbitUserTimezone } from '@trialwear/simulators';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, signIn } from '../support/browser.js';
import { storeFitbitMetrics, withDatabase } from '../support/database.js';
import { csvLines, DATA_CSV_HEADER, metricCsv, zipNames } from '../support/export-zip.js';
import { type OwnServer, startOwnServer } from '../support/own-server.js';
import { gone, shows } from '../support/wait.js';

const TRIAL = 'Sleep and Activity Study';
const LEGACY_CODE = 'SLP-003';
const CODE = 'SLP-004';
const CONSENT_LINK = /https?:\/\/\S+\/PAFitbitConsentPage\?id=\d+&t=[\w-]+/;
/** The exported metrics: catalog key → checkbox label, unit, the legacy simulator's value of a day. */
const EXPORTED = {
  steps: { label: 'Steps', unit: 'steps', value: (day: ReturnType<typeof fitbitDay>) => day.steps },
  floors: { label: 'Floors', unit: 'floors', value: (day: ReturnType<typeof fitbitDay>) => day.floors },
} as const;
const EXPORT_FILE = 'google-health-export';

const isoDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

describe('Fitbit through the Google Health API', () => {
  let server: OwnServer | undefined;
  let browser: Browser;
  /** SLP-004's participant id: the simulators' person is derived from it. */
  let participantId = 0;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-google-health-journey-'));

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

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a Fitbit linked while the portal used the legacy Fitbit Web API', { timeout: 240_000 }, async () => {
    server = await startOwnServer({ FITBIT_API: 'legacy' });
    const staff = await signedIn();
    await manageParticipant(staff.page, LEGACY_CODE);
    const { participant } = await consent(staff.page, LEGACY_CODE, '/sim/fitbit/oauth2/authorize');
    await allow(participant);
    await staff.page.reload();
    await shows(staff.page.getByText(/^Fitbit · Authorized on \d{4}-\d{2}-\d{2}$/));
    await shows(staff.page.getByText('API: Fitbit Web API (legacy)'));
    await staff.context.close();
    await server.stop({ keepData: true });
  });

  it(
    'default configuration: consent through Google → the card with the API → the steps page',
    { timeout: 240_000 },
    async () => {
      // FITBIT_API unset: the default back end, the Google Health API (its simulator mounted in the portal).
      server = await startOwnServer({ FITBIT_API: undefined }, { dataDir: server!.dataDir });
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
      participantId = Number(
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

  it(
    "an export of SLP-004's steps and floors: completed in the panel, the ZIP holds the same person's values",
    { timeout: 300_000 },
    async () => {
      const metrics = Object.keys(EXPORTED) as (keyof typeof EXPORTED)[];
      const { deviceName } = await storeFitbitMetrics(metrics, server!.dataDir);
      const coordinator = await signedIn('coordinator');
      const { page } = coordinator;
      await page.getByRole('link', { name: 'Data Export' }).click();
      await page.waitForURL('**/DataExport');
      await page.getByRole('textbox', { name: 'Trial', exact: true }).click();
      await page.getByRole('option', { name: `#001 - ${TRIAL}` }).click();
      await page.getByRole('textbox', { name: 'Device', exact: true }).click();
      await page.getByRole('option', { name: deviceName, exact: true }).click();
      await page.getByRole('textbox', { name: 'Participants', exact: true }).click();
      await page.getByRole('option', { name: new RegExp(`^${CODE} `) }).click();
      await page.keyboard.press('Escape');
      // Recent days that are over in every zone: whole days, as the steps page shows them.
      const days = [6, 5, 4, 3, 2].map(isoDay);
      const [from, to] = [days[0]!, days.at(-1)!];
      await page.getByLabel(/^Start date/).fill(from);
      await page.getByLabel(/^End date/).fill(to);
      const group = page.getByRole('group', { name: 'Metrics' });
      for (const metric of metrics)
        await group.getByRole('checkbox', { name: EXPORTED[metric].label, exact: true }).check();
      await page.getByRole('radio', { name: /Separate tabs/ }).check();
      await page.getByRole('textbox', { name: 'File name', exact: true }).fill(EXPORT_FILE);
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      const success = page.getByRole('dialog', { name: EXPORT_MESSAGES.successTitle });
      await shows(success.getByText(EXPORT_MESSAGES.success, { exact: true }));
      await success.getByRole('button', { name: 'OK' }).click();
      await gone(success);

      // The panel (polled every 10 s): the job fetches the range over the Google Health API, then writes.
      const row = page
        .getByRole('table', { name: 'Export jobs' })
        .locator('tbody tr', { hasText: `${EXPORT_FILE}.zip` });
      const status = (r: Locator) => r.locator('[data-job-status]').getAttribute('data-job-status');
      await shows(row);
      await expect.poll(() => status(row), { timeout: 120_000, interval: 500 }).toBe('completed');
      await shows(row.getByText(`1 participant: ${CODE}`));
      await shows(row.getByText(`${metrics.length} metrics: ${metrics.join(', ')} (one CSV per metric)`));
      await shows(row.getByText(`${from} to ${to}`));
      await shows(row.getByText(/^\d+(\.\d)? (B|KB|MB)$/));
      await screenshot(page, 'google-health-export-completed');

      // The download, fetched with the page's cookies and unzipped.
      const href = (await row
        .getByRole('link', { name: `Download ${EXPORT_FILE}.zip` })
        .getAttribute('href'))!;
      const res = await page.request.get(href);
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toBe('application/zip');
      const zipPath = path.join(tmp, `${EXPORT_FILE}.zip`);
      fs.writeFileSync(zipPath, await res.body());
      const names = zipNames(zipPath);
      const user = fitbitUserId(`TRIALWEARSIM:${participantId}`);
      for (const metric of metrics) {
        const csv = metricCsv(names, metric);
        expect(csv, `a CSV for ${metric} in ${names.join(', ')}`).toBeTruthy();
        const [header, ...rows] = csvLines(zipPath, csv!);
        expect(header!.startsWith(DATA_CSV_HEADER), header).toBe(true);
        const cells = rows.map((l) => l.split(','));
        expect(cells.map(([code, key, , , , , , unit]) => [code, key, unit])).toEqual(
          days.map(() => [CODE, metric, EXPORTED[metric].unit]),
        );
        // One reading per local date, equal to the legacy simulator's value of the same person's day.
        expect(Object.fromEntries(cells.map((c) => [c[2], Number(c[6])]))).toEqual(
          Object.fromEntries(days.map((d) => [d, EXPORTED[metric].value(fitbitDay(user, d))])),
        );
      }
      // The job's first step read the range through the sync path over the link's API, Google Health,
      // and the exported readings are what it stored.
      const { coverage, providers } = await withDatabase(async (db) => {
        const link = `SELECT d.id FROM participant_devices d JOIN participants p ON p.id = d.participant_id
                      WHERE p.participant_code = $1 AND d.provider = 'google_health'`;
        const coverage = await db.query(
          `SELECT metric_key, from_date::text FROM export_fetch_coverage
           WHERE participant_device_id IN (${link}) ORDER BY metric_key`,
          [CODE],
        );
        const providers = await db.query(
          `SELECT DISTINCT r.provider FROM device_readings r JOIN participants p ON p.id = r.participant_id
           WHERE p.participant_code = $1 AND r.metric_key = ANY($2) AND r.local_date BETWEEN $3 AND $4`,
          [CODE, metrics, from, to],
        );
        return { coverage: coverage.rows, providers: providers.rows };
      }, server!.dataDir);
      expect(coverage).toEqual([...metrics].sort().map((metric_key) => ({ metric_key, from_date: from })));
      expect(providers).toEqual([{ provider: 'google_health' }]);
      await coordinator.context.close();
    },
  );
});
