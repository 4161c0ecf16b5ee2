/*
 * axe-core over every route of the contract (issue #14 item 3): public pages
 * signed out, participant pages, and every staff route as each role that may
 * open it (Sys_Admin, Admin, User, Viewer). Pages that need navigation state
 * are reached as a person reaches them (dashboard → trial → Manage
 * Participant → its consent and token pages); the rest are opened by URL,
 * placeholders included. Serious and critical violations fail the test that
 * found them, each listed. One browser; one signed-in context per role.
 */
import {
  OPEN_ROUTES,
  PARTICIPANT_ROUTES,
  PUBLIC_ROUTES,
  ROLES,
  type Role,
  roleAllows,
  STAFF_ROUTES,
} from '@trialwear/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshotPath, signIn } from '../support/browser.js';
import { runAxe } from '../support/page-checks.js';
import { shows } from '../support/wait.js';

const USER_OF: Record<Role, string> = {
  Sys_Admin: 'sysadmin',
  Admin: 'admin',
  User: 'coordinator',
  Viewer: 'viewer',
};
const TRIAL = 'Sleep and Activity Study';
const LABEL_IN_NAME = 'label-content-name-mismatch';

interface Finding {
  where: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Waits until the page has loaded its data (no request in flight, no loader), then lets transitions end. */
async function settled(page: Page) {
  await page.waitForLoadState('load');
  // The page chunk and its data: no loader left (a page may have none at all).
  await page.waitForTimeout(60);
  await page
    .locator('.mantine-Loader-root')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => undefined);
  await page.waitForTimeout(100);
}

/**
 * Opens a path inside the running app, as its links do (history and a
 * popstate the router listens to): no reload of the bundle and the session
 * for each of the ~150 pages, which keeps the test within minutes.
 */
async function openInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * One test's axe run: `check` records the serious and critical findings of a page; `expectClean`
 * asserts that at least `pages` pages were checked and none had a finding (each test its own).
 */
function axeRun() {
  const findings: Finding[] = [];
  const checked: string[] = [];
  let axeMs = 0;
  async function check(page: Page, where: string) {
    await settled(page);
    const started = Date.now();
    // LABEL_IN_NAME (WCAG 2.5.3, label in name) is one of axe's experimental rules: the tags
    // leave those out, so it is switched on by name (a rule's `enabled` wins over runOnly tags).
    const result = await runAxe(page, { enable: [LABEL_IN_NAME] });
    if (
      !result.passes
        .concat(result.violations, result.incomplete, result.inapplicable)
        .some((r) => r.id === LABEL_IN_NAME)
    )
      throw new Error(`axe did not run ${LABEL_IN_NAME}`);
    axeMs += Date.now() - started;
    checked.push(where);
    for (const v of result.violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      findings.push({
        where: `${where} (${new URL(page.url()).pathname})`,
        rule: v.id,
        impact: v.impact,
        help: v.help,
        // For contrast, the colours axe measured: enough to find the style to fix.
        targets: v.nodes.slice(0, 5).map((n) => {
          const d = n.any[0]?.data as
            | { fgColor?: string; bgColor?: string; contrastRatio?: number }
            | undefined;
          const colours = d?.fgColor ? ` (${d.fgColor} on ${d.bgColor}, ${d.contrastRatio}:1)` : '';
          return `${n.target.join(' ')}: ${n.html.slice(0, 120)}${colours}`;
        }),
      });
    }
  }

  function expectClean(pages: number) {
    const report = findings
      .map((f) => `- ${f.where}: [${f.impact}] ${f.rule}: ${f.help}\n    ${f.targets.join('\n    ')}`)
      .join('\n');
    console.info(`axe: ${checked.length} pages checked, ${Math.round(axeMs / 1000)} s in axe itself`);
    expect(checked.length).toBeGreaterThanOrEqual(pages);
    expect(findings.length, `axe found ${findings.length} serious or critical violations:\n${report}`).toBe(
      0,
    );
  }
  return { check, expectClean };
}

describe('accessibility: axe over every route', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('public, open and participant pages, signed out', { timeout: 120_000 }, async () => {
    const { check, expectClean } = axeRun();
    const { page, context } = await newPage(browser);
    await page.goto('/LoginPage');
    const paths = [...PUBLIC_ROUTES, ...OPEN_ROUTES, ...PARTICIPANT_ROUTES, '/no/such/page'];
    for (const path of paths) {
      await openInApp(page, path);
      await check(page, `signed out ${path}`);
    }
    await context.close();
    expectClean(paths.length);
  });

  for (const role of ROLES) {
    it(`every staff route ${role} may open`, { timeout: 240_000 }, async () => {
      const { check, expectClean } = axeRun();
      const { page, context } = await newPage(browser);
      await signIn(page, USER_OF[role]);
      const routes = Object.entries(STAFF_ROUTES)
        .filter(([, roles]) => roleAllows(role, roles))
        .map(([path]) => path);
      const viaState = new Set<string>();

      // The pages that read the trial or participant from navigation state, reached by clicking.
      await check(page, `${role} /`);
      if (role === 'Admin') {
        // The profile menu is named by its content: the visible name, then 'Profile menu' (WCAG 2.5.3).
        const profile = page.getByRole('button', { name: 'Ada Admin Profile menu', exact: true });
        await profile.screenshot({ path: screenshotPath('a11y-profile-menu-button') });
      }
      await page.getByRole('button', { name: TRIAL }).click();
      await page.waitForURL('**/TrialPage');
      await check(page, `${role} /TrialPage`);
      viaState.add('/TrialPage');
      if (routes.includes('/TrialUsers')) {
        await page.getByRole('button', { name: 'Manage Users for this trial' }).click();
        await page.waitForURL('**/TrialUsers');
        await check(page, `${role} /TrialUsers`);
        viaState.add('/TrialUsers');
        await page.goBack();
        await page.waitForURL('**/TrialPage');
      }
      if (routes.includes('/Participant')) {
        await page.getByRole('button', { name: 'Add Participant' }).click();
        await page.waitForURL('**/AddParticipantPage');
        await check(page, `${role} /AddParticipantPage`);
        viaState.add('/AddParticipantPage');
        await page.goBack();
        await page.waitForURL('**/TrialPage');
        const row = page.getByRole('table', { name: 'Participants' }).locator('tbody tr').first();
        await row.getByRole('button', { name: 'Manage Participant' }).click();
        await page.waitForURL('**/Participant');
        await shows(page.getByText('Devices Management'));
        await check(page, `${role} /Participant`);
        if (role === 'Admin') {
          // The device card's button: its name holds its visible text (WCAG 2.5.3).
          const request = page.getByRole('button', { name: 'Request Authorization for Fitbit', exact: true });
          expect((await request.innerText()).trim()).toBe('Request Authorization');
          await request.locator('xpath=ancestor::div[contains(@class, "mantine-Card-root")][1]').screenshot({
            path: screenshotPath('a11y-device-card-request-authorization'),
          });
        }
        viaState.add('/Participant');
        for (const [path, label] of [
          ['/FitbitParticipantConsent', 'Fitbit consent page'],
          ['/DexcomParticipantConsent', 'Dexcom consent page'],
          ['/FitbitManageParticipantToken', 'Fitbit token'],
          ['/OmronManageParticipantToken', 'Omron token'],
        ] as const) {
          if (!routes.includes(path)) continue;
          await page.getByRole('button', { name: label }).click();
          await page.waitForURL(`**${path}`);
          await check(page, `${role} ${path}`);
          viaState.add(path);
          await page.goBack();
          await page.waitForURL('**/Participant');
        }
      }

      for (const path of routes) {
        if (path === '/' || viaState.has(path)) continue;
        await openInApp(page, path);
        await check(page, `${role} ${path}`);
      }
      await context.close();
      expectClean(routes.length);
    });
  }
});
