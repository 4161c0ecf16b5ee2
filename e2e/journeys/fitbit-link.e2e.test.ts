import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn } from '../support/browser.js';
import { consentFromEmail, openManageParticipant } from '../support/consent.js';
import { shows } from '../support/wait.js';

// Each test signs in, waits for mail and walks a provider's pages: over a minute on a loaded 2-core machine.
describe('linking a Fitbit', { timeout: 150_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('request → emailed consent link → Allow → success → device card with battery and last sync', async () => {
    const staff = await newPage(browser);
    await signIn(staff.page, 'admin');
    await openManageParticipant(staff.page, 'HBP-001');
    await shows(staff.page.getByText('Fitbit · Not authorized'));
    await staff.page.getByRole('button', { name: 'Request Authorization for Fitbit' }).click();
    await shows(staff.page.getByText('The consent link was emailed to the participant.'));

    const participant = await consentFromEmail(browser, 'hbp-001@participants.trialwear.local', 'Allow');
    await shows(
      participant.page.getByText('Your Fitbit is now connected to your study. You may close this page.'),
    );
    await screenshot(participant.page, 'fitbit-callback-success');
    await participant.context.close();

    await staff.page.reload();
    await shows(staff.page.getByText(/^Fitbit · Authorized on \d{4}-\d{2}-\d{2}$/));
    await shows(staff.page.getByText(/^Battery \d+% · /));
    await shows(staff.page.getByText(/^Last sync: \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/));
    await shows(staff.page.getByRole('button', { name: 'Sleep Duration' }));
    // The card is titled with the device's name, the model shown as its version.
    await shows(staff.page.getByText(/^Fitbit (Charge 6|Inspire 3|Sense 2|Versa 4)$/));
    await shows(staff.page.getByText(/^Version: (Charge 6|Inspire 3|Sense 2|Versa 4)$/));
    await screenshot(staff.page, 'fitbit-device-card');

    // The trial page shows the authorized device; its status check runs on load.
    await staff.page.goto('/TrialPage');
    const row = staff.page
      .getByRole('table', { name: 'Participants' })
      .locator('tbody tr', { hasText: 'HBP-001' });
    await shows(row.getByText('Fitbit'));
    expect(
      await staff.page.getByText('Some device information could not be loaded.', { exact: false }).count(),
    ).toBe(0);
    // When Fitbit's hourly limit is used up, the page warns and still lists everyone.
    const exhausted = await staff.page.request.post('/sim/fitbit/_control/exhaust-rate-limit', { data: {} });
    expect(exhausted.ok()).toBe(true);
    try {
      await staff.page.reload();
      await shows(
        staff.page.getByText(
          'Some device information could not be loaded. Participants are still displayed.',
        ),
      );
      await shows(row.getByText('Fitbit'));
      await screenshot(staff.page, 'trial-page-device-warning');
    } finally {
      // The hour given back even when a step above failed: other journeys (data pages, sync) read Fitbit.
      expect(
        (await staff.page.request.post('/sim/fitbit/_control/reset-rate-limit', { data: {} })).ok(),
      ).toBe(true);
    }
    await staff.context.close();
  });

  it('Omron and Dexcom: consent → Allow → their cards', async () => {
    const staff = await newPage(browser);
    await signIn(staff.page, 'admin');
    await openManageParticipant(staff.page, 'HBP-003');
    await staff.page.getByRole('button', { name: 'Request Authorization for Omron' }).click();
    await shows(staff.page.getByText('The consent link was emailed to the participant.'));
    await staff.page.getByRole('button', { name: 'Request Authorization for Dexcom' }).click();
    await shows(staff.page.getByText('The consent link was emailed to the participant.').nth(1));
    for (const brand of ['Omron', 'Dexcom'] as const) {
      const participant = await consentFromEmail(
        browser,
        'hbp-003@participants.trialwear.local',
        'Allow',
        brand,
      );
      await shows(
        participant.page.getByText(`Your ${brand} is now connected to your study. You may close this page.`),
      );
      await participant.context.close();
    }
    await staff.page.reload();
    await shows(staff.page.getByText(/^Omron · Authorized on /));
    await shows(staff.page.getByText(/^Dexcom · Authorized on /));
    await shows(staff.page.getByRole('button', { name: 'Blood Pressure' }));
    // Human names, never the raw BLOOD_PRESSURE label or "G7 (g7)".
    await shows(staff.page.getByText('Blood pressure monitor').first());
    await shows(staff.page.getByText('Version: BP7450'));
    await shows(staff.page.getByText('Dexcom G7', { exact: true }));
    await shows(staff.page.getByText('Continuous glucose monitor'));
    expect(await staff.page.getByText('BLOOD_PRESSURE').count()).toBe(0);
    expect(await staff.page.getByText('G7 (g7)').count()).toBe(0);
    await screenshot(staff.page, 'omron-dexcom-cards');

    // Revoke asks in the styled confirmation modal (no window.confirm), then returns to the trial.
    let nativeDialog = false;
    staff.page.on('dialog', (d) => {
      nativeDialog = true;
      void d.dismiss();
    });
    await staff.page.getByRole('button', { name: 'Revoke Access' }).last().click();
    const dialog = staff.page.getByRole('dialog', { name: 'Revoke Dexcom access?' });
    await shows(dialog);
    await staff.page.waitForTimeout(300); // the modal's fade-in, for a readable screenshot
    await screenshot(staff.page, 'revoke-confirm');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await staff.page.waitForURL('**/TrialPage');
    expect(nativeDialog).toBe(false);
    await staff.context.close();
  });

  it('Deny → the cancelled text', async () => {
    const staff = await newPage(browser);
    await signIn(staff.page, 'admin');
    await openManageParticipant(staff.page, 'HBP-002');
    await staff.page.getByRole('button', { name: 'Request Authorization for Fitbit' }).click();
    await shows(staff.page.getByText('The consent link was emailed to the participant.'));
    await staff.context.close();
    const participant = await consentFromEmail(browser, 'hbp-002@participants.trialwear.local', 'Deny');
    await shows(
      participant.page.getByText('The authorization has been canceled. You may now close this page.'),
    );
    expect(new URL(participant.page.url()).searchParams.get('error')).toBe('access_denied');
    await participant.context.close();
  });
});
