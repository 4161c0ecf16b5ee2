/*
 * The study-health page (issue #23 §6, with §3's rules form and §4's
 * alerts): an Admin of a journey team opens a trial's page whose stored days
 * and alerts the test wrote as the background sync and the rules'
 * evaluation write them (SQL on the shared server's database): the heat map
 * shows the hours worn and a grey no-data cell, those needing attention come
 * first, a cell opens that day's Fitbit page; the Admin acknowledges an
 * alert with a note and saves the rules (a refused number shows the server's
 * message under its field); the Admin downloads the compliance report (CSV, XLSX) of
 * the shown range; a Viewer of the trial sees the rules read-only and no report.
 * Each test builds its own trial. The alerts the fixtures open hold (a link
 * errored, no sync for days), so the hourly evaluation keeps them open.
 * Links opened directly (the digest e-mail's, a reload) name the trial, the
 * participant and the day in the URL; a Dexcom participant's cell opens the
 * glucose page on that day. The demo seed's trial shows its two participants
 * needing attention on first start. A trial of 400 renders only the rows in
 * view, and the arrow keys scroll the next one in.
 */
import fs from 'node:fs';
import { STUDY_HEALTH_MESSAGES as M, studyHealthDefinition } from '@trialwear/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { cli, journeyTeam } from '../support/cli.js';
import { withDatabase } from '../support/database.js';
import { accessible } from '../support/page-checks.js';
import { crowdedTrial, healthTrial, utcDate } from '../support/study-health.js';
import { gone, shows } from '../support/wait.js';

const TEAM = 'E2E Health Team';
const ADMIN = 'healthadmin';
const VIEWER = 'healthviewer';

describe('the study health page', () => {
  let browser: Browser;
  let admin: Awaited<ReturnType<typeof newPage>>;
  let teamId: number;

  beforeAll(async () => {
    browser = await launchBrowser();
    teamId = await journeyTeam(TEAM, { hiddenFields: 'none', admin: ADMIN });
    await cli(
      'create-user',
      '--username',
      VIEWER,
      '--email',
      `${VIEWER}@journeys.trialwear.local`,
      '--password',
      DEMO_PASSWORD,
      '--first-name',
      'Journey',
      '--last-name',
      'Viewer',
      '--team',
      TEAM,
      '--role',
      'Viewer',
      '--no-sfa',
    );
    admin = await newPage(browser);
    await signIn(admin.page, ADMIN);
  });
  afterAll(async () => {
    await admin?.context.close();
    await browser?.close();
  });

  const open = async (page: Page, trialId: number) => {
    await page.goto(`/StudyHealth?trialId=${trialId}`);
    await shows(page.getByRole('table', { name: 'Wear per participant and day' }));
  };

  it('shows the hours worn, the grey no-data cell, those needing attention first; a cell opens the day', async () => {
    const { trialId, codes } = await healthTrial(teamId, 'HMA', VIEWER);
    const { page } = admin;
    // Reached from the trial page.
    await page.goto('/Trials');
    await page.getByRole('button', { name: 'Health study HMA' }).click();
    await page.waitForURL('**/TrialPage');
    await page.getByRole('button', { name: 'Study health' }).click();
    await page.waitForURL((u) => u.pathname === '/StudyHealth' && u.search === `?trialId=${trialId}`);
    await shows(page.getByRole('table', { name: 'Wear per participant and day' }));
    await shows(page.getByRole('heading', { name: /Study health — Trial #H\d+ - Health study HMA/ }));

    const [x1, x2, x3] = codes as [string, string, string];
    await shows(page.getByRole('button', { name: `${x1}, ${utcDate(1)}: 9.5 h worn`, exact: true }));
    await shows(page.getByRole('button', { name: `${x1}, ${utcDate(2)}: 0 h worn`, exact: true }));
    const noData = page.getByRole('button', { name: `${x1}, ${utcDate(3)}: no data (not synced yet)` });
    await shows(noData);
    expect(await noData.textContent()).toBe('–');
    // Grey: the legend's no-data colour.
    expect(await noData.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(233, 236, 239)');
    await shows(page.getByRole('button', { name: `${x3}, ${utcDate(2)}: 15 h worn`, exact: true }));
    // The legend's definition: the data dictionary's and the report's text.
    await shows(page.getByText(studyHealthDefinition('wear_minutes').description, { exact: false }));
    // 14 days by default, the participant with open alerts and an errored link first.
    const table = page.getByRole('table', { name: 'Wear per participant and day' });
    expect(await table.locator('thead th').count()).toBe(5 + 14);
    expect(await table.getByRole('rowheader').allTextContents()).toEqual([x2, x1, x3, codes[3]]);
    await shows(table.getByRole('row', { name: new RegExp(x2) }).getByText('Errored'));
    // The navigation's badge: open alerts of the trials the Admin sees.
    await shows(page.getByTestId('alert-count'));
    await accessible(page, 'the study health page');
    await screenshot(page, 'study-health-page');

    // The compliance report of the shown range: the same days as the page, then the open alerts.
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe(
      `TrialWear_study_health_trial${trialId}_${utcDate(13)}_${utcDate(0)}.csv`,
    );
    const text = fs.readFileSync((await csv.path())!, 'utf8');
    expect(text.startsWith('\uFEFFrecord_type,participant_code,local_date,wear_minutes,')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines[1]).toMatch(new RegExp(`^day,${x1},${utcDate(13)},,,,,,`));
    expect(lines.find((l) => l.startsWith(`day,${x1},${utcDate(1)},`))).toMatch(
      /^day,[^,]+,[^,]+,570,,,,heart_rate,/,
    );
    expect(lines.filter((l) => l.startsWith(`alert,${x2},`))).toHaveLength(2);
    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download XLSX' }).click(),
    ]);
    expect(xlsx.suggestedFilename()).toMatch(/^TrialWear_study_health_trial\d+_.+\.xlsx$/);
    expect(
      fs
        .readFileSync((await xlsx.path())!)
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');

    // 7 days: fewer columns, the same cells.
    await page.getByText('7 days', { exact: true }).click();
    await page.waitForFunction(
      () =>
        document.querySelectorAll('table[aria-label="Wear per participant and day"] thead th').length === 12,
    );
    await shows(page.getByRole('button', { name: `${x1}, ${utcDate(1)}: 9.5 h worn`, exact: true }));

    // Keyboard: the first cell is in the tab order, the arrows move, Enter opens the day.
    const first = table.locator('button[data-r="0"][data-c="0"]');
    await first.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      `${x1}, ${utcDate(0)}: no data (not synced yet)`,
    );
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/FitbitParticipant1DayData');
    await shows(page.getByRole('heading', { name: 'Fitbit one-day data' }));
    expect(await page.getByLabel('Date').inputValue()).toBe(utcDate(1));
    await screenshot(page, 'study-health-one-day');
  });

  it('a trial of 400: only the rows in view are rendered, the arrows scroll the next row in', async () => {
    const { trialId, codes } = await crowdedTrial(teamId, 'HMV', 400);
    const { page } = admin;
    await open(page, trialId);
    const table = page.getByRole('table', { name: 'Wear per participant and day' });
    // The table says how many rows it has; the DOM holds the visible ones and a few either side.
    expect(await table.getAttribute('aria-rowcount')).toBe('401');
    const rendered = table.locator('tbody tr:not([aria-hidden])');
    expect(await rendered.count()).toBeLessThan(80);
    expect(await rendered.first().getAttribute('aria-rowindex')).toBe('2');
    // Spacer rows keep the scroll height of all 400.
    expect(await table.evaluate((t) => t.parentElement!.scrollHeight)).toBeGreaterThan(400 * 28);

    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    const inView = () =>
      page.evaluate(() => {
        const cell = document.activeElement!.getBoundingClientRect();
        const box = document.activeElement!.closest('table')!.parentElement!.getBoundingClientRect();
        // Below the sticky header row, above the container's bottom edge.
        return cell.top >= box.top + 25 && cell.bottom <= box.bottom;
      });
    await table.locator('button[data-r="0"][data-c="0"]').focus();
    for (let i = 0; i < 60; i += 1) await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(`${codes[60]}, ${utcDate(13)}: no data (not synced yet)`);
    expect(await inView()).toBe(true);
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe(`${codes[57]}, ${utcDate(13)}: no data (not synced yet)`);
    expect(await inView()).toBe(true);

    // Scrolled to the end: the last participants are rendered; the focused cell's row stays.
    await table.evaluate((t) => {
      t.parentElement!.scrollTop = t.parentElement!.scrollHeight;
    });
    await shows(table.getByRole('rowheader', { name: codes[399], exact: true }));
    expect(await focused()).toBe(`${codes[57]}, ${utcDate(13)}: no data (not synced yet)`);
    await accessible(page, 'the study health page of 400 participants');
    await screenshot(page, 'study-health-400');
  });

  it('acknowledges an alert with a note (a modal), then shows who and when', async () => {
    const { trialId, codes } = await healthTrial(teamId, 'HMB', VIEWER);
    const { page } = admin;
    await open(page, trialId);
    const alerts = page.getByRole('table', { name: 'Alerts' });
    await shows(alerts.getByRole('row', { name: new RegExp(`${codes[1]}.*No sync.*Open`) }));
    await page.getByRole('button', { name: `Acknowledge No sync of ${codes[1]}` }).click();
    const dialog = page.getByRole('dialog', { name: `Acknowledge: No sync of ${codes[1]}` });
    await shows(dialog);
    await dialog.getByRole('button', { name: 'Acknowledge' }).click();
    await shows(dialog.getByText(M.noteRequired));
    // axe measures colours: not of the hovered button (the theme's hover shade), not mid-transition.
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => document.getAnimations().length === 0);
    await accessible(page, 'the acknowledge modal');
    await dialog.getByLabel('Note').fill('Called: the tracker was left at home');
    await screenshot(page, 'study-health-acknowledge');
    await dialog.getByRole('button', { name: 'Acknowledge' }).click();
    await gone(dialog);
    const row = alerts.getByRole('row', { name: new RegExp(`${codes[1]}.*No sync`) });
    await shows(row.getByText('Acknowledged'));
    await shows(row.getByText(/By Journey Admin on /));
    await shows(row.getByText('“Called: the tracker was left at home”'));
    // The other alert is still open, and can still be acknowledged.
    await shows(page.getByRole('button', { name: `Acknowledge Link error of ${codes[1]}` }));
  });

  it("saves the rules; a refused number shows the server's message under its field", async () => {
    const { trialId } = await healthTrial(teamId, 'HMC', VIEWER);
    const { page } = admin;
    await open(page, trialId);
    const form = page.getByRole('form', { name: 'Study health rules' });
    await shows(form);
    const hours = form.getByLabel('Hours worn a day, below');
    expect(await hours.inputValue()).toBe('10');
    await hours.fill('30');
    await form.getByLabel('Time zone of the trial').fill('Mars/Olympus');
    await form.getByRole('button', { name: 'Save rules' }).click();
    await shows(form.getByText(M.wearHours));
    await shows(form.getByText(M.timezoneUnknown));
    expect(await hours.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'study-health-rules-refused');
    await hours.fill('8');
    await form.getByLabel('Time zone of the trial').fill('Europe/Berlin');
    await form.getByRole('switch', { name: 'Low battery' }).click({ force: true });
    await form.getByRole('button', { name: 'Save rules' }).click();
    await shows(form.getByText('Changes saved'));
    await gone(form.getByText(M.wearHours));
    await shows(page.getByText("Days of the trial's time zone, Europe/Berlin."));
    const saved = await withDatabase(
      async (db) =>
        (await db.query('SELECT timezone, rules FROM trial_health_rules WHERE trial_id = $1', [trialId]))
          .rows[0],
    );
    expect(saved.timezone).toBe('Europe/Berlin');
    expect(saved.rules.lowWear.minHours).toBe(8);
    expect(saved.rules.lowBattery.enabled).toBe(false);
    // The signed-in Admin's digest opt-in.
    const digest = page.getByRole('switch', { name: 'Send me the daily digest of this trial' });
    expect(await digest.isChecked()).toBe(false);
    await digest.click({ force: true });
    const subscribed = async () =>
      withDatabase(
        async (db) =>
          (
            await db.query(
              `SELECT s.digest FROM health_digest_subscriptions s JOIN users u ON u.id = s.user_id
             WHERE s.trial_id = $1 AND u.username = $2`,
              [trialId, ADMIN],
            )
          ).rows[0]?.digest,
      );
    for (let i = 0; i < 50 && (await subscribed()) !== true; i += 1) await page.waitForTimeout(100);
    expect(await subscribed()).toBe(true);
    await screenshot(page, 'study-health-rules-saved');
  });

  it('a Viewer sees the rules read-only, cannot acknowledge and has no digest switch', async () => {
    const { trialId, codes } = await healthTrial(teamId, 'HMD', VIEWER);
    const viewer = await newPage(browser);
    try {
      await signIn(viewer.page, VIEWER);
      const { page } = viewer;
      await open(page, trialId);
      await shows(page.getByRole('button', { name: `${codes[0]}, ${utcDate(1)}: 9.5 h worn`, exact: true }));
      await shows(page.getByText('Only Admins can change the rules; you see them read-only.'));
      const form = page.getByRole('form', { name: 'Study health rules' });
      expect(await form.getByRole('button', { name: 'Save rules' }).count()).toBe(0);
      expect(await form.getByLabel('Hours worn a day, below').getAttribute('readonly')).not.toBeNull();
      expect(await form.getByRole('switch').count()).toBe(0);
      await shows(form.getByText('Low wear: On'));
      await shows(page.getByRole('table', { name: 'Alerts' }).getByText(codes[1]!));
      expect(await page.getByRole('button', { name: /^Acknowledge/ }).count()).toBe(0);
      // No report for a Viewer (core §6: no data exports; decision 034).
      expect(await page.getByRole('link', { name: /^Download/ }).count()).toBe(0);
      expect(await page.getByRole('switch', { name: 'Send me the daily digest of this trial' }).count()).toBe(
        0,
      );
      await accessible(page, 'the study health page as a Viewer');
      await screenshot(page, 'study-health-viewer');
    } finally {
      await viewer.context.close();
    }
  });

  it("opens the e-mail's participant link directly; a Dexcom cell opens the glucose page on that day", async () => {
    const { trialId, codes, pids } = await healthTrial(teamId, 'HME', VIEWER);
    // A trial and participant of another team (the demo's), which this Admin may not see.
    const other = await withDatabase(
      async (db) =>
        (
          await db.query(
            `SELECT t.id AS "trialId", p.id AS pid, p.participant_code AS code
             FROM trials t JOIN participants p ON p.trial_id = t.id
             WHERE t.trial_name = 'Wear Compliance Study' ORDER BY p.id LIMIT 1`,
          )
        ).rows[0] as { trialId: number; pid: number; code: string },
    );
    const { page } = admin;
    // The digest's link (mail.ts), opened in a fresh tab: no navigation state.
    await page.goto(`/ParticipantOverview?trialId=${trialId}&participantId=${pids[0]}`);
    await shows(page.getByRole('heading', { name: 'Participant overview' }));
    await shows(page.getByLabel('Participant').getByText(codes[0]!));
    await shows(page.getByRole('button', { name: /^Trial: #H\d+ - Health study HME$/ }));
    await screenshot(page, 'study-health-deep-link-participant');
    // Another team's trial and participant: the page's not-found text, nothing of theirs.
    await page.goto(`/ParticipantOverview?trialId=${other.trialId}&participantId=${other.pid}`);
    await shows(page.getByText("Something went wrong! We could not find trial's info."));
    expect(await page.getByText(other.code).count()).toBe(0);
    // Their participant named with this Admin's trial: not found either.
    await page.goto(`/ParticipantOverview?trialId=${trialId}&participantId=${other.pid}`);
    await shows(page.getByText("Something went wrong! We could not find participant's info."));

    await open(page, trialId);
    const dexcom = codes[3]!;
    await page.getByRole('button', { name: `${dexcom}, ${utcDate(2)}: CGM active 93 % of the day` }).click();
    await page.waitForURL(
      (u) =>
        u.pathname === '/DexcomParticipantDataPage' &&
        u.searchParams.get('participantId') === String(pids[3]) &&
        u.searchParams.get('date') === utcDate(2),
    );
    await shows(page.getByRole('heading', { name: 'Dexcom glucose' }));
    await shows(page.getByLabel('Window').getByText(`Day ${utcDate(2)} (participant’s clock)`));
    // A reload keeps the participant and the day (the URL names them).
    await page.reload();
    await shows(page.getByLabel('Participant').getByText(dexcom));
    await shows(page.getByLabel('Window').getByText(`Day ${utcDate(2)} (participant’s clock)`));
    await screenshot(page, 'study-health-dexcom-day');
  });

  it("shows the demo trial's two participants needing attention on first start", async () => {
    const demo = await newPage(browser);
    try {
      await signIn(demo.page, 'admin');
      const { page } = demo;
      const trialId: number = await withDatabase(
        async (db) =>
          (await db.query(`SELECT id FROM trials WHERE trial_name = 'Wear Compliance Study'`)).rows[0].id,
      );
      await open(page, trialId);
      const table = page.getByRole('table', { name: 'Wear per participant and day' });
      const codes = await table.getByRole('rowheader').allTextContents();
      expect(codes.slice(0, 2)).toEqual(['WCS-002', 'WCS-005']);
      await shows(table.getByRole('row', { name: /WCS-002/ }).getByText('Low wear'));
      await shows(table.getByRole('row', { name: /WCS-005/ }).getByText('Low battery'));
      await screenshot(page, 'study-health-demo-trial');
      // The digest's link to WCS-002, opened directly: the participant and their tracker's section.
      const pid: number = await withDatabase(
        async (db) =>
          (await db.query(`SELECT id FROM participants WHERE participant_code = 'WCS-002'`)).rows[0].id,
      );
      await page.goto(`/ParticipantOverview?trialId=${trialId}&participantId=${pid}`);
      await shows(page.getByRole('heading', { name: 'Participant overview' }));
      await shows(page.getByLabel('Participant').getByText('WCS-002'));
      await shows(page.getByText('Fitness tracker'));
      await gone(page.getByRole('progressbar'));
      await page.waitForLoadState('networkidle');
      await screenshot(page, 'study-health-demo-participant-link');
    } finally {
      await demo.context.close();
    }
  });
});
