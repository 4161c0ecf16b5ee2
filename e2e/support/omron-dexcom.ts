/*
 * The Omron and Dexcom journeys' fixture and expectations
 * (omron-data.e2e.test.ts, dexcom-overview-raw.e2e.test.ts): a demo
 * participant linked to Fitbit, Omron and Dexcom through the consent e-mails,
 * as a coordinator does; the readings the Omron simulator's generator holds
 * for it; a data table's rows.
 */
import { omronDay } from '@trialwear/simulators';
import { addDays, datesBetween, utcDate } from '@trialwear/zone';
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { newPage, signIn } from './browser.js';
import { consentFromEmail, openManageParticipant } from './consent.js';
import { shows } from './wait.js';

/** The simulators' client id when no provider credentials are configured (providers/<p>/<p>-client.ts). */
export const SIM_CLIENT = 'TRIALWEARSIM';

/** The blood-pressure readings the Omron simulator holds for the user, local date ≥ since, up to now, oldest first. */
export function expectedBloodPressure(userId: string, since: string, nowMs: number) {
  const out = [];
  for (const d of datesBetween(since, addDays(utcDate(nowMs), 1)))
    out.push(...omronDay(userId, d).bloodPressure.filter((r) => Date.parse(r.dateTime) <= nowMs));
  return out.sort((a, b) => Date.parse(a.dateTime) - Date.parse(b.dateTime));
}

/**
 * Links Fitbit, Omron and Dexcom for the demo participant `code` (of the Home Blood Pressure Pilot)
 * through the consent e-mails sent to `email`; returns its id. A journey links a participant no
 * other journey links.
 */
export async function linkAllThree(browser: Browser, code: string, email: string): Promise<number> {
  const staff = await newPage(browser);
  await signIn(staff.page, 'sysadmin');
  await openManageParticipant(staff.page, code);
  const idText = await staff.page.getByText(/^Participant ID: \d+$/).textContent();
  const participantId = Number(idText?.match(/\d+/)?.[0]);
  expect(participantId).toBeGreaterThan(0);
  for (const brand of ['Fitbit', 'Omron', 'Dexcom'] as const) {
    await staff.page.getByRole('button', { name: `Request Authorization for ${brand}` }).click();
    const participant = await consentFromEmail(browser, email, 'Allow', brand);
    await shows(
      participant.page.getByText(`Your ${brand} is now connected to your study. You may close this page.`),
    );
    await participant.context.close();
  }
  await staff.context.close();
  return participantId;
}
