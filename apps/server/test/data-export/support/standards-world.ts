/*
 * The world of the standard-format export tests (archive-fhir,
 * archive-omh): one participant linked to the Fitbit, Omron and Dexcom
 * simulators, each storing the metrics (steps, 1-minute heart rate,
 * blood pressure, weight, glucose; and more as asked), synced, in the test
 * file's own database; an archive of a week in a format, unzipped.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import {
  type ArchiveRequest,
  writeExportArchive,
} from '../../../src/features/data-export/archive/write-archive.js';
import { syncDevice } from '../../../src/jobs/device-sync/sync-device.js';
import { type TeamFixture, teamWithRoles } from '../../support/fixtures.js';
import { linkParticipant, simControl, trialWithParticipants } from '../../support/linked-participant.js';
import { storeMetrics } from '../../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { testClock } from '../../support/test-clock.js';
import { collect, signal } from './archive-world.js';
import { unzip } from './zip.js';

export const NOW = '2027-03-20T12:00:00Z'; // the week crosses the US clock change of 14 March 2027
export const START = '2027-03-12';
export const END = '2027-03-18';

export interface StandardsWorld {
  t: TestApp;
  a: TeamFixture;
  pid: number;
  /** The simulators' user of each provider. */
  users: Record<'fitbit' | 'omron' | 'dexcom', string>;
  /** The week's archive of `metrics` in `format`: entry name → bytes, in archive order. */
  archive(format: ArchiveRequest['format'], metrics: string[]): Promise<Map<string, Buffer>>;
}

/** Registers the file's hooks; the world is there once beforeAll has run. */
export function useStandardsWorld(
  fitbitMetrics: string[] = ['steps', 'heart_rate_intraday'],
): StandardsWorld {
  const clock = testClock(NOW);
  const w = { users: {} } as StandardsWorld;
  beforeAll(async () => {
    w.t = await createTestApp({ listen: true, now: clock.now });
    w.a = await teamWithRoles(w.t, 'Standards', {
      hiddenFields: [],
      allowedBrands: ['Fitbit', 'Omron', 'Dexcom'],
    });
    await storeMetrics(w.a, 'Fitbit Sense', fitbitMetrics);
    await storeMetrics(w.a, 'Omron Blood Pressure Monitor', ['systolic', 'diastolic']);
    await storeMetrics(w.a, 'Omron Scale', ['weight']);
    await storeMetrics(w.a, 'Dexcom G7 CGM', ['egv']);
    const { trialId } = await trialWithParticipants(w.a, 'Standards', []);
    w.pid = (
      await w.a.as.Admin.post('/api/trialParticipants', { trialId, email: 'standards@x.example' })
    ).json().participantId as number;
    for (const provider of ['fitbit', 'omron', 'dexcom'] as const) {
      await simControl(w.t, provider).clock(NOW);
      w.users[provider] = await linkParticipant(w.t, w.a, w.pid, provider);
    }
    const links = await w.t.ctx.db
      .selectFrom('participant_devices')
      .select('id')
      .where('participant_id', '=', w.pid)
      .execute();
    // A backfill runs 10 intraday days a sync: enough runs for the week.
    for (const { id } of links)
      for (let i = 0; i < 4; i++) expect((await syncDevice(w.t.ctx, id)).status).toBe('synced');
  }, 120_000);
  afterAll(() => w.t?.close());
  w.archive = async (format, metrics) => {
    const zip = await collect((out) =>
      writeExportArchive(
        w.t.ctx.db,
        {
          teamId: w.a.teamId,
          participantIds: [w.pid],
          metricKeys: metrics,
          startDate: START,
          endDate: END,
          mode: 'separate-tabs',
          format,
          jobParams: { format },
        },
        out,
        { signal: signal() },
      ),
    );
    return new Map((await unzip(zip)).map((e) => [e.name, e.data]));
  };
  return w;
}

/** The lines of an NDJSON file, parsed. */
export const ndjson = (b: Buffer) =>
  b
    .toString('utf8')
    .split('\n')
    .slice(0, -1)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
