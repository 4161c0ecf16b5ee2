/*
 * Fitbit data pages (issue #10) against the built server and its mounted
 * simulator: a participant of the Sleep and Activity Study links a Fitbit;
 * the device card's 'Steps' opens the data page, whose chart and table show
 * the simulator's own values (its generator, per local date); period and
 * category switch; overview tiles move in Shift mode (keyboard) and Swap
 * mode (mouse) and keep their order after a reload; a Viewer reads the data;
 * Ctrl+Shift+Q reaches /ParticipantRaw for a Sys_Admin only.
 */
import { kgToLb } from '@trialwear/contract';
import { fitbitDay } from '@trialwear/simulators';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { openManageParticipant } from '../support/consent.js';
import { enqueueSync, storeFitbitMetrics, withDatabase } from '../support/database.js';
import { type FitbitJourneyWorld, fitbitJourneyWorld } from '../support/fitbit-journey.js';
import { accessible } from '../support/page-checks.js';
import { tablePairs } from '../support/tables.js';
import { shows } from '../support/wait.js';

const TRIAL = 'Sleep and Activity Study';
const CODE = 'SLP-005';
const tileOrder = (page: Page) =>
  page.locator('[data-tile]').evaluateAll((els) => els.map((e) => e.getAttribute('data-tile')));

describe('Fitbit data pages', () => {
  let browser: Browser;
  let staff: FitbitJourneyWorld['staff'];
  let pid: number;
  let user: string;
  /** The data page's navigation state (participant and trial), for the Viewer's visit. */
  let navState: unknown;
  let openPage: FitbitJourneyWorld['openPage'];
  let navigate: FitbitJourneyWorld['navigate'];

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ staff, pid, user, navState, openPage, navigate } = await fitbitJourneyWorld(browser, {
      trial: TRIAL,
      code: CODE,
    }));
  });

  afterAll(async () => {
    await staff?.context.close();
    await browser?.close();
  });

  it("device card 'Steps' → the data page: chart and table with the simulator's steps per local date", async () => {
    const page = await staff.context.newPage();
    await openManageParticipant(page, CODE, TRIAL);
    await page.getByRole('button', { name: 'Steps' }).click();
    await page.waitForURL('**/FitbitParticipantDataPage**');
    await shows(page.getByText(`Participant ID: ${pid}`));

    // Another journey may have used up the simulator's hour for everyone: the next hour starts fresh.
    const limited = page.locator('[data-provider-limit]');
    await shows(page.getByRole('table', { name: 'Steps table' }).or(limited), 20_000);
    if ((await limited.count()) > 0) {
      await page.request.post('/sim/fitbit/_control/clock', { data: { advanceMs: 3_600_000 } });
      await page.reload();
    }
    const rows = await tablePairs(page, 'Steps table', 7);
    expect(rows).toHaveLength(7);
    for (const [date, text] of rows)
      expect(text, date).toBe(fitbitDay(user, date).steps.toLocaleString('en-US'));
    // Consecutive local dates ending today.
    const dates = rows.map((r) => r[0]);
    for (let i = 1; i < dates.length; i++)
      expect(Date.parse(dates[i]!) - Date.parse(dates[i - 1]!)).toBe(86_400_000);
    await shows(page.getByRole('img', { name: /^Steps \(steps\), / }));
    expect(await page.locator('.uplot canvas').count()).toBeGreaterThan(0);
    await shows(page.getByRole('button', { name: /^Trial: #.+ - Sleep and Activity Study$/ }));
    await screenshot(page, 'fitbit-data-steps');
    await accessible(page, 'the Steps data page');
  });

  it('switching period and category', async () => {
    const page = await openPage('/FitbitParticipantDataPage?subject=steps&period=7d');
    const period = page.getByRole('textbox', { name: 'Period' });
    await period.click();
    await page.getByRole('option', { name: '1 Month' }).click();
    // Picking the option already chosen keeps it (it used to clear the field: "Select a period").
    await period.click();
    await page.getByRole('option', { name: '1 Month' }).click();
    expect(await period.inputValue()).toBe('1 Month');
    await page.getByRole('button', { name: 'Show data' }).click();
    await page.waitForURL(/period=1m/);
    const month = await tablePairs(page, 'Steps table', 28);
    expect(month.length).toBeGreaterThanOrEqual(28);
    for (const [date, text] of month)
      expect(text, date).toBe(fitbitDay(user, date).steps.toLocaleString('en-US'));

    // Body → the weight series, shown in pounds.
    await page.getByRole('textbox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Body' }).click();
    await page.getByRole('button', { name: 'Show data' }).click();
    await page.waitForURL(/category=body/);
    const weights = await tablePairs(page, 'Weight table', 28);
    expect(weights.length).toBeGreaterThanOrEqual(28);
    for (const [date, text] of weights) {
      const kg = fitbitDay(user, date).weightKg;
      expect(text, date).toBe(kg === null ? '—' : kgToLb(kg).toLocaleString('en-US'));
    }
    await shows(page.getByText('Weight (Lbs)').first());
    // The device chooser shows the scale for body data.
    expect(await page.getByRole('radio', { name: 'Scale' }).isChecked()).toBe(true);
    await screenshot(page, 'fitbit-data-weight-month');

    // Custom dates: the spec's messages.
    await page.getByRole('textbox', { name: 'Period' }).click();
    await page.getByRole('option', { name: 'Custom dates' }).click();
    await page.getByRole('button', { name: 'Show data' }).click();
    await shows(page.getByText('Please select a start date'));
    await shows(page.getByText('Please select an end date'));
    await page.getByLabel('Start date').fill('2026-03-10');
    await page.getByLabel('End date').fill('2026-03-09');
    await page.getByRole('button', { name: 'Show data' }).click();
    await shows(page.getByText('End date cannot be before start date'));
    await page.getByLabel('End date').fill('2099-01-01');
    await page.getByRole('button', { name: 'Show data' }).click();
    await shows(page.getByText('Date cannot be in the future'));
    await screenshot(page, 'fitbit-data-form-messages');
  });

  it('overview tiles: Shift mode by keyboard, Swap mode by mouse, the order kept after a reload', async () => {
    // From the body data (the scale chosen), 'Tracker' leads to the tracker's overview.
    const page = await openPage('/FitbitParticipantDataPage?category=body&period=7d&subject=weight');
    await page.getByText('Tracker', { exact: true }).click();
    await page.waitForURL(/category=overview/);
    await shows(page.locator('[data-tile]'), 20_000);
    const before = await tileOrder(page);
    expect(before).toHaveLength(6);
    await shows(page.getByText(/^Last 7 days: /));

    // Shift: the first tile moves one place on (Space, arrow, Space); the numbers follow.
    const first = page.getByRole('button', { name: /^Move tile .+ \(position 1\)$/ });
    await first.focus();
    await page.keyboard.press('Space');
    await page.waitForTimeout(200);
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(300);
    await page.keyboard.press('Space');
    await page.waitForTimeout(400);
    const shifted = await tileOrder(page);
    expect(shifted).toEqual([before[1], before[0], ...before.slice(2)]);
    await page.reload();
    await shows(page.locator('[data-tile]'), 20_000);
    expect(await tileOrder(page)).toEqual(shifted);

    // Swap: drag tile 1's handle onto tile 3: only those two change places.
    await page.getByText('Swap mode', { exact: true }).click();
    const handle = page.getByRole('button', { name: /\(position 1\)$/ });
    const target = page.locator('[data-tile]').nth(2);
    const h = (await handle.boundingBox())!;
    const t = (await target.boundingBox())!;
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x + h.width / 2 + 20, h.y + h.height / 2, { steps: 5 });
    await page.mouse.move(t.x + t.width / 2, t.y + t.height / 2, { steps: 20 });
    await page.waitForTimeout(200);
    await page.mouse.up();
    await page.waitForTimeout(400);
    const swapped = await tileOrder(page);
    expect(swapped).toEqual([shifted[2], shifted[1], shifted[0], ...shifted.slice(3)]);
    // The message names the tiles by their titles (as their handles do), not by internal keys.
    const titleAt = async (position: number) =>
      (await page
        .getByRole('button', { name: new RegExp(`\\(position ${position}\\)$`) })
        .getAttribute('aria-label'))!.replace(/^Move tile (.+) \(position \d+\)$/, '$1');
    await shows(page.getByText(`Swapped ${await titleAt(3)} and ${await titleAt(1)}.`, { exact: true }));
    await page.reload();
    await shows(page.locator('[data-tile]'), 20_000);
    expect(await tileOrder(page)).toEqual(swapped);

    // Expand all tables, save the local summary, see its date.
    await page.getByRole('button', { name: 'Expand all' }).click();
    await shows(page.getByRole('table', { name: /last 14 days$/ }));
    await page.getByRole('button', { name: 'Save summary' }).click();
    await shows(page.getByText(/^Stored summary: /));
    await screenshot(page, 'fitbit-overview-tiles');

    // Ctrl+Shift+Q does nothing for an Admin.
    await page.keyboard.press('Control+Shift+Q');
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/FitbitParticipantDataPage');
  });

  it('/FitbitParticipantOverview shows the tiles in the saved order; /FitbitParticipantDataForm opens the data page', async () => {
    const page = await openPage('/FitbitParticipantDataPage?category=overview');
    await shows(page.locator('[data-tile]'), 20_000);
    const order = await tileOrder(page);
    await page.getByRole('button', { name: 'Overview', exact: true }).click();
    await page.waitForURL('**/FitbitParticipantOverview');
    await shows(page.locator('[data-tile]'), 20_000);
    expect(await tileOrder(page)).toEqual(order);
    await screenshot(page, 'fitbit-overview-page');
    await accessible(page, 'the overview page');

    await navigate(page, '/FitbitParticipantDataForm');
    await shows(page.getByRole('form', { name: 'Tracker data query' }));
    await page.getByRole('textbox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Sleep' }).click();
    await screenshot(page, 'fitbit-data-form-page');
    await page.getByRole('button', { name: 'Show data' }).click();
    await page.waitForURL(/\/FitbitParticipantDataPage\?category=sleep/);
    const sleep = await tablePairs(page, 'Sleep duration table', 7);
    expect(sleep).toHaveLength(7);
    for (const [date, text] of sleep) {
      const night = fitbitDay(user, date).sleep;
      expect(text, date).toBe(night ? night.minutesAsleep.toLocaleString('en-US') : '—');
    }
    await page.getByRole('button', { name: 'Overview', exact: true }).click();
    await page.getByRole('button', { name: 'More Fitbit data' }).click();
    await page.waitForURL('**/FitbitParticipantDataPage');
  });

  it('one-day page: intraday heart rate and steps', async () => {
    const page = await openPage('/FitbitParticipantDataPage?subject=steps&period=7d');
    await page.getByRole('button', { name: 'One day' }).click();
    await page.waitForURL('**/FitbitParticipant1DayData');
    // A day the participant wore the tracker (about one in nine is not worn), before the sync's
    // 30-day backfill: never stored, so read from Fitbit whatever the background sync has done.
    let date = new Date(Date.now() - 35 * 86_400_000).toISOString().slice(0, 10);
    while (!fitbitDay(user, date).worn)
      date = new Date(Date.parse(date) - 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Date').fill(date);
    await page.getByRole('button', { name: 'Show day' }).click();
    await shows(page.getByRole('img', { name: 'Heart rate (1-minute detail)' }), 20_000);
    await shows(
      page.getByText(`${fitbitDay(user, date).steps.toLocaleString('en-US')} steps.`, { exact: false }),
    );
    await shows(page.getByRole('img', { name: 'Steps per minute' }));
    // A day the sync has not stored: both are read from Fitbit now.
    await shows(page.getByText('Heart rate: live from Fitbit; steps: live from Fitbit.'));
    await page.getByLabel('Start time').fill('08:00');
    await page.getByRole('button', { name: 'Show day' }).click();
    await shows(page.getByText('Please add start and end time'));
    await page.getByLabel('End time').fill('12:00');
    await page.getByText('1 second', { exact: true }).click();
    await page.getByRole('button', { name: 'Show day' }).click();
    await shows(page.getByRole('img', { name: 'Heart rate (1-second detail)' }), 20_000);
    await screenshot(page, 'fitbit-one-day');
  });

  it('one-day page: a day the sync stored whole is drawn from the store, and says so', async () => {
    // The team stores both intraday metrics; one sync job (the server's workers) stores the backfill's
    // oldest 10 days, which the sync has then moved past.
    const stored = await storeFitbitMetrics(['heart_rate_intraday', 'steps_intraday']);
    try {
      const deviceId = await withDatabase(async (db) => {
        const { rows } = await db.query<{ id: number }>(
          'SELECT id FROM participant_devices WHERE participant_id = $1',
          [pid],
        );
        return rows[0]!.id;
      });
      await enqueueSync(deviceId);
      const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
      // A worn day among the oldest 10 of the backfill, not its last (the day the sync goes on from).
      let n = 27;
      while (!fitbitDay(user, day(n)).worn) n -= 1;
      const date = day(n);
      const deadline = Date.now() + 120_000;
      while (
        !(await withDatabase(async (db) => {
          const { rows } = await db.query(
            `SELECT 1 FROM intraday_days d JOIN device_sync_cursors c
               ON c.participant_device_id = d.participant_device_id AND c.metric_key = d.metric_key
             WHERE d.participant_device_id = $1 AND d.local_date = $2 AND c.cursor_date > d.local_date`,
            [deviceId, date],
          );
          return rows.length === 2;
        }))
      ) {
        expect(Date.now(), 'the sync did not store the day').toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 500));
      }
      const page = await openPage('/FitbitParticipantDataPage?subject=steps&period=7d');
      await page.getByRole('button', { name: 'One day' }).click();
      await page.waitForURL('**/FitbitParticipant1DayData');
      await page.getByLabel('Date').fill(date);
      await page.getByRole('button', { name: 'Show day' }).click();
      await shows(
        page.getByText(/^Heart rate: stored, synced \d{4}-\d{2}-\d{2} \d{2}:\d{2}; steps: stored, synced /),
        20_000,
      );
      // The same day as the provider has it: its steps in full.
      await shows(
        page.getByText(`${fitbitDay(user, date).steps.toLocaleString('en-US')} steps.`, { exact: false }),
      );
      await shows(page.getByRole('img', { name: 'Heart rate (1-minute detail)' }));
      await screenshot(page, 'fitbit-one-day-stored');
    } finally {
      await stored.restore();
    }
  });

  it('a Viewer sees the data; Ctrl+Shift+Q does nothing for them', async () => {
    const viewer = await newPage(browser);
    await signIn(viewer.page, 'viewer');
    // The page's navigation state as the data page had it (a Viewer reaches it from the trial's overview).
    await navigate(viewer.page, '/FitbitParticipantDataPage?subject=steps&period=7d');
    const rows = await tablePairs(viewer.page, 'Steps table', 7);
    expect(rows).toHaveLength(7);
    for (const [date, text] of rows)
      expect(text, date).toBe(fitbitDay(user, date).steps.toLocaleString('en-US'));
    await viewer.page.keyboard.press('Control+Shift+Q');
    await viewer.page.waitForTimeout(300);
    expect(new URL(viewer.page.url()).pathname).toBe('/FitbitParticipantDataPage');
    await viewer.context.close();
  });

  it('Ctrl+Shift+Q as Sys_Admin reaches /ParticipantRaw', async () => {
    const admin = await newPage(browser);
    await signIn(admin.page, 'sysadmin');
    await openManageParticipant(admin.page, CODE, TRIAL);
    await admin.page.getByRole('button', { name: 'Fitbit Data' }).click();
    await admin.page.waitForURL('**/FitbitParticipantDataPage**');
    await shows(admin.page.locator('[data-tile]'), 20_000);
    await admin.page.keyboard.press('Control+Shift+Q');
    await admin.page.waitForURL('**/ParticipantRaw');
    await admin.context.close();
  });

  it('several participants side by side', async () => {
    const page = await openPage('/');
    await page.evaluate(
      ({ id, trial }) => {
        history.pushState(
          { usr: { participants: [{ id, email: '' }], trial }, key: 'many', idx: 2 },
          '',
          '/FitbitParticipantsDataPage',
        );
        dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
      },
      { id: pid, trial: (navState as { trial: unknown }).trial },
    );
    const table = page.getByRole('table', { name: 'Steps by participant' });
    await shows(table, 20_000);
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')),
      );
    expect(rows).toHaveLength(7);
    for (const [date, text] of rows) expect(text).toBe(fitbitDay(user, date!).steps.toLocaleString('en-US'));
    // Each participant's column names the unit, as the chart's axis does.
    await shows(table.getByRole('columnheader', { name: `#${pid} (steps)` }));
    await shows(page.getByText(`#${pid}`).first());
    await screenshot(page, 'fitbit-participants-data');
  });

  it('a year of weight is one request and loads; a spent hourly limit is ONE notice with the resume time', async () => {
    const page = await openPage('/');
    const dataCalls: string[] = [];
    const count = (r: { url(): string }) => {
      if (r.url().includes('/api/getFitbitServerParticipantData/'))
        dataCalls.push(decodeURIComponent(r.url()));
    };
    page.on('request', count);
    const open = (search: string) => navigate(page, `/FitbitParticipantDataPage${search}`);
    await open('?category=body&period=1y&subject=weight');
    const weights = await tablePairs(page, 'Weight table', 365);
    expect(weights.length).toBeGreaterThanOrEqual(365);
    // One request for the year, and one provider call: Fitbit's weight series by period (issue #21 §3).
    const weightCalls = dataCalls.filter((u) => u.includes('/body/'));
    expect(weightCalls).toHaveLength(1);
    expect(weightCalls[0]).toMatch(/\/body\/weight\/date\/\d{4}-\d{2}-\d{2}\/1y\.json$/);
    for (const [date, text] of weights) {
      const kg = fitbitDay(user, date).weightKg;
      expect(text, date).toBe(kg === null ? '—' : kgToLb(kg).toLocaleString('en-US'));
    }
    await shows(page.getByText('Weight (Lbs)').first());
    await screenshot(page, 'fitbit-data-weight-year');

    // Fitbit's hour used up (the simulator answers 429 with Retry-After): every chart of the page is refused.
    await page.request.post('/sim/fitbit/_control/exhaust-rate-limit', { data: {} });
    try {
      await open('?category=activities&period=6m');
      const notice = page.locator('[data-provider-limit]');
      await shows(notice, 20_000);
      await shows(page.getByText(/: not loaded yet \(see the notice above\)\.$/).first());
      expect(await notice.count()).toBe(1);
      expect(await notice.textContent()).toMatch(
        /^Fitbit's hourly limit for this participant is reached; data resumes at \d\d:\d\d$/,
      );
      expect(await page.getByText('Too Many Requests').count()).toBe(0);
      await screenshot(page, 'fitbit-data-hourly-limit');
    } finally {
      page.off('request', count);
      await page.request.post('/sim/fitbit/_control/reset-rate-limit', { data: {} });
    }
  });
});
