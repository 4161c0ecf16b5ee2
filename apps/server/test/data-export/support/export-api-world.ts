/*
 * The export API tests' world (export-api.int.test.ts,
 * export-api-runs.int.test.ts), built by each file in its own database: an
 * app on the file's clock, team A (hides emails; stores Fitbit steps and
 * distance) and team B, and trials of their own with participants linked to
 * Fitbit through the real consent flow.
 */
import { utcDate } from '@trialwear/zone';
import { type TeamFixture, teamWithRoles } from '../../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../../support/linked-participant.js';
import { storeMetrics } from '../../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import type { testClock } from '../../support/test-clock.js';

export const DAY = 86_400_000;
type Clock = ReturnType<typeof testClock>;

/** The UTC date `days` days before the clock's now. */
export const datesAgo = (clock: Clock) => (days: number) => utcDate(clock.now().getTime() - days * DAY);

export type ExportTrial = Awaited<ReturnType<ExportApiWorld['newTrial']>>;

export async function exportApiWorld(clock: Clock) {
  const dateAgo = datesAgo(clock);
  const t: TestApp = await createTestApp({ listen: true, now: clock.now });
  let trialSeq = 0;

  /** The team stores Fitbit steps and distance; answers the ids of its Fitbit and Omron devices. */
  async function storesFitbit(team: TeamFixture) {
    await storeMetrics(team, 'Fitbit Sense', ['steps', 'distance']);
    const devices = (await team.as.User.get('/api/dataExport/devices')).json() as Array<{
      id: number;
      friendlyName: string;
    }>;
    return {
      fitbit: devices.find((d) => d.friendlyName === 'Fitbit Sense')!.id,
      omron: devices.find((d) => d.friendlyName === 'Omron Blood Pressure Monitor')!.id,
    };
  }

  const a = await teamWithRoles(t, 'Export API A', { hiddenFields: ['email'] });
  const b = await teamWithRoles(t, 'Export API B', { hiddenFields: [] });
  const fitbitDevice = (await storesFitbit(a)).fitbit;

  /**
   * A trial of its own for one test (of team A and its Fitbit device unless told): two participants linked to Fitbit, whose
   * devices nothing has called yet, and one unlinked; `body` asks an export of the linked two.
   */
  async function newTrial(team: TeamFixture = a, deviceId = fitbitDevice) {
    trialSeq += 1;
    const trialNumber = String(trialSeq);
    const { trialId, ids } = await trialWithParticipants(
      team,
      'Export API',
      [`p1.${trialSeq}@x.example`, `p2.${trialSeq}@x.example`, `unlinked.${trialSeq}@x.example`],
      trialNumber,
    );
    await linkParticipant(t, team, ids[0]!, 'fitbit');
    await linkParticipant(t, team, ids[1]!, 'fitbit');
    const body: Record<string, unknown> = {
      trialId,
      deviceId,
      participantIds: [ids[0], ids[1]],
      startDate: dateAgo(5),
      endDate: dateAgo(2),
      metrics: ['steps'],
      fileName: 'api export',
      exportMode: 'single-tab',
    };
    return { trialId, trialNumber, ids, body };
  }
  const jobsTotal = async () => (await a.as.User.get('/api/dataExport/jobs')).json().total as number;
  const listedJob = async (id: string) =>
    (await a.as.User.get('/api/dataExport/jobs')).json().data.find((j: { id: string }) => j.id === id);

  return { t, a, b, fitbitDevice, storesFitbit, newTrial, jobsTotal, listedJob };
}

export type ExportApiWorld = Awaited<ReturnType<typeof exportApiWorld>>;
