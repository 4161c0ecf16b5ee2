/*
 * One journey with the keyboard alone (issue #14 item 3): sign in with the
 * second factor (authenticator set up, then a TOTP code computed as the
 * identity journey does), open a trial, add a participant, request consent.
 * Only page.keyboard moves and acts (Tab, Shift+Tab, Enter, Space, arrows,
 * Escape; typing text). At every stop the focused element must show a
 * visible focus indicator, and a dialog must keep focus inside and give it
 * back to the button that opened it. The participant is deleted at the end
 * (by keyboard as well), so the demo trial is left as later journeys expect.
 */
import { authenticator } from 'otplib';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, launchBrowser, newPage, screenshot } from '../support/browser.js';
import { cli } from '../support/cli.js';
import { waitForMail } from '../support/inbox.js';
import { gone, shows } from '../support/wait.js';

const USERNAME = 'keyboarder';
const EMAIL = 'keyboard.participant@participants.trialwear.local';

/** What the focused element looks like: its name, and whether a focus ring is drawn. */
function focusState(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: '(body)', visible: false, tag: 'BODY' };
    // The ring may be drawn on the field's box around the input (password fields): look two levels up.
    const ringed = (node: Element | null, depth: number): boolean => {
      if (!node || depth > 2) return false;
      const s = getComputedStyle(node);
      const outline = s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0;
      const ring = s.boxShadow !== 'none' && s.boxShadow !== '';
      return outline || ring || ringed(node.parentElement, depth + 1);
    };
    const name =
      el.getAttribute('aria-label') ??
      ((el as HTMLInputElement).labels?.[0]?.textContent || el.textContent || el.tagName).trim();
    return { name, visible: ringed(el, 0), tag: el.tagName };
  });
}

const isFocused = (target: Locator) =>
  target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, asserting a
 * visible focus indicator on every element passed on the way.
 */
async function tabTo(page: Page, target: Locator, opts: { back?: boolean; max?: number } = {}) {
  for (let i = 0; i < (opts.max ?? 60); i++) {
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
    const state = await focusState(page);
    if (state.tag !== 'BODY') expect(state.visible, `no visible focus on "${state.name}"`).toBe(true);
    if (await isFocused(target)) return;
  }
  throw new Error(`could not reach ${target} with ${opts.back ? 'Shift+Tab' : 'Tab'}`);
}

/**
 * The code of the next 30-second step: the portal allows one step of drift and accepts each step
 * once, so this code is never a replay of the one just used, and no test waits for a new step.
 */
const nextStepCode = (secret: string) => authenticator.clone({ epoch: Date.now() + 30_000 }).generate(secret);

async function keyboardLogin(page: Page) {
  await page.goto('/LoginPage');
  await tabTo(page, page.getByLabel('Username'));
  await page.keyboard.type(USERNAME);
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
}

describe('keyboard only', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    await cli(
      'create-user',
      '--username',
      USERNAME,
      '--email',
      'keyboarder@demo.trialwear.local',
      '--password',
      DEMO_PASSWORD,
      '--first-name',
      'Kim',
      '--last-name',
      'Keys',
      '--team',
      'Demo Research Team',
      '--role',
      'Admin', // a new User sees only the trials they are added to; an Admin sees the team's
    );
  });
  afterAll(() => browser.close());

  it(
    'second factor → trial → add participant → request consent, with visible focus and trapped dialogs',
    {
      timeout: 150_000,
    },
    async () => {
      const { page, context } = await newPage(browser);

      // First sign-in: set up the authenticator (the key is read off the page, as a person copies it).
      await keyboardLogin(page);
      await page.waitForURL('**/SFASetupPage');
      const secret = (await page.getByTestId('sfa-key').innerText()).trim();
      await tabTo(page, page.getByLabel('Code'));
      await page.keyboard.type(authenticator.generate(secret));
      await page.keyboard.press('Enter');
      await page.waitForURL('**/LoginPage');

      // Sign in with the second factor.
      await keyboardLogin(page);
      await page.waitForURL('**/SFAValidatePage');
      await tabTo(page, page.getByLabel('Code'));
      await page.keyboard.type(nextStepCode(secret));
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === '/');

      // Open a trial from the dashboard.
      const trial = page.getByRole('button', { name: 'Home Blood Pressure Pilot' });
      await shows(trial);
      await tabTo(page, trial);
      await screenshot(page, 'keyboard-focus-trial');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/TrialPage');

      // Add a participant: the form by keyboard, the gender picked with the arrows.
      const add = page.getByRole('button', { name: 'Add Participant' });
      await shows(add);
      await tabTo(page, add);
      await page.keyboard.press('Enter');
      await page.waitForURL('**/AddParticipantPage');
      await tabTo(page, page.getByRole('textbox', { name: 'Gender' }));
      await page.keyboard.press('ArrowDown'); // opens the list
      await shows(page.getByRole('option', { name: 'Female', exact: true }));
      // Enter picks the option the arrows marked. Opening marks the current value (None) a moment later,
      // and under load an arrow pressed before that mark lands on None again: move on until the mark
      // is on another option (bounded), then Enter.
      const marked = page.locator('[role="option"][data-combobox-selected]');
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('ArrowDown');
        await shows(marked);
        if ((await marked.textContent())?.trim() !== 'None') break;
      }
      await page.keyboard.press('Enter');
      expect(await page.getByRole('textbox', { name: 'Gender' }).inputValue()).not.toBe('None');
      await tabTo(page, page.getByLabel('Email'));
      await page.keyboard.type(EMAIL);
      await tabTo(page, page.getByRole('button', { name: 'Add Participant' }));
      await page.keyboard.press('Enter');
      await shows(page.getByRole('status').getByText(/Participant .* added\./));
      // Back to the trial, then to the new participant (the search finds the row).
      await tabTo(page, page.getByRole('button', { name: 'Back to trial' }), { back: true });
      await page.keyboard.press('Space');
      await page.waitForURL('**/TrialPage');
      await tabTo(page, page.getByLabel('Search'));
      await page.keyboard.type(EMAIL);
      const row = page.getByRole('table', { name: 'Participants' }).locator('tbody tr', { hasText: EMAIL });
      await shows(row);
      await tabTo(page, row.getByRole('button', { name: 'Manage Participant' }));
      await page.keyboard.press('Enter');
      await page.waitForURL('**/Participant');
      await shows(page.getByText('Devices Management'));

      // A dialog keeps the focus inside while open and gives it back when closed.
      const del = page.getByRole('button', { name: 'Delete Participant' });
      await tabTo(page, del);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Delete participant?' });
      await shows(dialog);
      await page.waitForTimeout(300); // the modal's transition
      expect(await isFocused(dialog)).toBe(true);
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
        expect(await isFocused(dialog), 'focus left the open dialog').toBe(true);
        expect((await focusState(page)).visible).toBe(true);
      }
      await screenshot(page, 'keyboard-dialog-focus');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await page.waitForTimeout(300);
      expect(await isFocused(del), 'focus returned to the button that opened the dialog').toBe(true);

      // Request consent.
      await tabTo(page, page.getByRole('button', { name: 'Request Authorization for Fitbit' }));
      await page.keyboard.press('Enter');
      await shows(page.getByText('The consent link was emailed to the participant.'));
      await waitForMail((m) => m.includes(`To: ${EMAIL}`) && m.includes('PAFitbitConsentPage'));
      await screenshot(page, 'keyboard-consent-requested');

      // Leave the demo trial as it was (later journeys count its participants): delete, by keyboard too.
      await tabTo(page, del, { back: true });
      await page.keyboard.press('Enter');
      await shows(dialog);
      await tabTo(page, dialog.getByRole('button', { name: 'Delete', exact: true }));
      await page.keyboard.press('Enter');
      await page.waitForURL('**/TrialPage');
      await gone(page.getByRole('table', { name: 'Participants' }).getByText(EMAIL));
      await context.close();
    },
  );
});
