/*
 * The batch export journeys' world (data-export*.e2e.test.ts): a trial of the
 * journey's own with the coordinator on it and participants who link a Fitbit
 * through the consent page, and the demo team storing the journey's metrics
 * for its duration (`restore` puts back what it had).
 */
import type { Browser } from 'playwright-core';
import { newPage, signIn } from './browser.js';
import { consentFromEmail } from './consent.js';
import { storeFitbitMetrics } from './database.js';
import { apiWrite } from './page-checks.js';
import { shows } from './wait.js';

/** A calendar date `daysAgo` days before today (UTC), as the export form takes it. */
export const isoDay = (daysAgo: number) =>
  new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

export interface ExportJourneyWorld {
  trialId: number;
  participantIds: number[];
  codes: string[];
  /** The demo team's Fitbit tracker that stores the metrics. */
  deviceName: string;
  restore: () => Promise<void>;
}

export async function exportJourneyWorld(
  browser: Browser,
  trial: { number: string; name: string; emails: readonly string[]; metrics: readonly string[] },
): Promise<ExportJourneyWorld> {
  const admin = await newPage(browser);
  await signIn(admin.page, 'admin');
  const { trialId } = await apiWrite<{ trialId: number }>(admin.page, 'POST', '/api/userTrials', {
    trialNumber: trial.number,
    trialName: trial.name,
    trialNotes: 'Created by a data export journey',
  });
  await apiWrite(admin.page, 'POST', '/api/trialUsers', {
    trialId,
    userEmail: 'coordinator@demo.trialwear.local',
  });
  const participantIds: number[] = [];
  const codes: string[] = [];
  for (const [i, email] of trial.emails.entries()) {
    const p = await apiWrite<{ participantId: number; participant_code: string }>(
      admin.page,
      'POST',
      '/api/trialParticipants',
      { trialId, email, gender: 'None', age: '40', notes: '', codeSuffix: `00${i + 1}` },
    );
    participantIds.push(p.participantId);
    codes.push(p.participant_code);
    await apiWrite(
      admin.page,
      'POST',
      `/api/participantDevices/${p.participantId}/fitbit/consentRequest`,
      {},
    );
    const participant = await consentFromEmail(browser, email, 'Allow');
    await shows(
      participant.page.getByText('Your Fitbit is now connected to your study. You may close this page.'),
    );
    await participant.context.close();
  }
  await admin.context.close();

  // The demo team stores the metrics of its Fitbit tracker (what the metrics manager and the
  // retention page set); what it had before is put back afterwards.
  const stored = await storeFitbitMetrics(trial.metrics);
  return { trialId, participantIds, codes, deviceName: stored.deviceName, restore: stored.restore };
}
