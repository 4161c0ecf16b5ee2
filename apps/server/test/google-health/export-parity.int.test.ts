/*
 * One person, two APIs, in an export (issue #13): a participant linked
 * through the Google Health API (the default back end) is exported by the
 * batch export job — which fetches the range through the sync path, on the
 * link's own API — and every CSV row holds the legacy Fitbit generator's
 * value of that person for that local date, with the same metric keys and
 * units as a legacy export.
 */
import { fitbitDay } from '@trialwear/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport } from '../../src/jobs/data-export/run-export.js';
import { parseCsv, zipEntries } from '../data-export/export-zip.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../support/linked-participant.js';
import { storeMetrics } from '../support/stored-metrics.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const DAY = 86_400_000;
const dateAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);
const datesFrom = (start: string, end: string) => {
  const out: string[] = [];
  for (let t = Date.parse(start); t <= Date.parse(end); t += DAY)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
};
const METRICS = ['steps', 'distance', 'floors'] as const;
const UNITS: Record<(typeof METRICS)[number], string> = { steps: 'steps', distance: 'km', floors: 'floors' };

describe('export of a participant linked through the Google Health API', () => {
  let t: TestApp;
  let a: TeamFixture;
  let pid: number;
  let legacyUser: string;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, env: { FITBIT_API: 'google_health' } });
    a = await teamWithRoles(t, 'GH export', { hiddenFields: ['email', 'notes'] });
    await storeMetrics(a, 'Fitbit Sense', [...METRICS]);
    const { ids } = await trialWithParticipants(a, 'GH export', ['gh.export@private.example']);
    pid = ids[0]!;
    await linkParticipant(t, a, pid, 'fitbit');
    const link = await t.ctx.db
      .selectFrom('participant_devices')
      .select(['provider', 'legacy_user_id'])
      .where('participant_id', '=', pid)
      .executeTakeFirstOrThrow();
    expect(link.provider).toBe('google_health');
    // The same person's legacy Fitbit account: the generator both simulators derive from.
    legacyUser = link.legacy_user_id!;
    expect(legacyUser).toBeTruthy();
  }, 180_000);
  afterAll(() => t?.close());

  it("every participant × metric × local date holds the legacy generator's value, in the provider's unit", async () => {
    const start = dateAgo(10);
    const end = dateAgo(2);
    const devices = (await a.as.User.get('/api/dataExport/devices')).json() as Array<{
      id: number;
      friendlyName: string;
    }>;
    const trials = (await a.as.User.get('/api/dataExport/trials')).json() as Array<{ trialId: number }>;
    const res = await a.as.User.post('/api/dataExport/batchDataExport', {
      trialId: trials[0]!.trialId,
      deviceId: devices.find((d) => d.friendlyName === 'Fitbit Sense')!.id,
      participantIds: [pid],
      startDate: start,
      endDate: end,
      metrics: [...METRICS],
      exportMode: 'single-tab',
      fileName: 'gh-export',
    });
    expect(res.statusCode, res.body).toBe(200);
    const jobId = res.json().jobId as string;
    expect(await runExport(t.ctx, jobId)).toMatchObject({ status: 'completed' });
    // The fetch went to the Google Health simulator, not the legacy one.
    const provenance = await t.ctx.db
      .selectFrom('device_readings')
      .select('provider')
      .distinct()
      .where('participant_id', '=', pid)
      .execute();
    expect(provenance.map((p) => p.provider)).toEqual(['google_health']);

    const zip = await a.as.User.get(`/api/dataExport/jobs/${jobId}/download`);
    expect(zip.statusCode).toBe(200);
    const files = await zipEntries(zip.rawPayload);
    const rows = parseCsv(files.get('data.csv')!.toString('utf8')).rows;
    const got = rows.map((r) => `${r.metric_key}|${r.local_date}|${Number(r.value)}|${r.unit}`).sort();
    const want = METRICS.flatMap((m) =>
      datesFrom(start, end).map((d) => {
        const day = fitbitDay(legacyUser, d);
        const value = m === 'steps' ? day.steps : m === 'distance' ? day.distanceKm : day.floors;
        return `${m}|${d}|${value}|${UNITS[m]}`;
      }),
    ).sort();
    expect(got).toEqual(want);
    for (const r of rows) expect(r.utc_offset).toMatch(/^[+-]\d\d:\d\d$/);
  }, 120_000);
});
