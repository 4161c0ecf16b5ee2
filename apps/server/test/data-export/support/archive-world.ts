/*
 * The world of the writeExportArchive tests (archive.int.test.ts,
 * archive-abort.int.test.ts), built in each file's own database: readings of
 * three participants (London across the spring DST change, Kiritimati at
 * +14:00, Los Angeles at -07:00) and one of another team, hidden emails and
 * notes; the request over them and the CSV lines it must give.
 */
import { PassThrough } from 'node:stream';
import type { ArchiveRequest } from '../../../src/features/data-export/archive/write-archive.js';
import { type ReadingRow, upsertReadings } from '../../../src/features/readings/repo.js';
import { createTestTeam, insertTrial } from '../../support/fixtures.js';
import type { TestApp } from '../../support/test-app.js';

export const HEADER =
  'participant_code,metric_key,local_date,local_time,utc_offset,measured_at_utc,value,unit,value_json,device,source,display_value,display_unit';
export const SECRETS = [
  'hidden-a@secret.example',
  'hidden-b@secret.example',
  'hidden-c@secret.example',
  'NOTE-SECRET',
];

export const DICTIONARY = [
  'metric_key,metric_name,unit,description,source,device_type',
  'egv,Estimated glucose value,mg/dL,Sensor glucose value every 5 minutes,dexcom,cgm',
  'heart_rate_intraday,Intraday heart rate,bpm,Heart rate per minute through the day,fitbit,fitness_tracker',
  'sleep_stages,Sleep stages,min,"Minutes in deep, light, REM and wake stages",fitbit,fitness_tracker',
  'steps,Steps,steps,Steps taken per day (and per minute intraday),fitbit,fitness_tracker',
  // The study-health measures (decision 034), after the exported metrics, whatever was chosen.
  "wear_minutes,Wear minutes,min,Minutes of the participant's local day with a heart-rate sample in the provider's 1-minute intraday heart rate. No value (null) = the provider had no data for that day yet; 0 = synced but not worn.,trialwear_study_health,fitness_tracker",
  "cgm_active_percent,CGM active time,%,Share of the day's 288 expected 5-minute CGM readings that arrived (the clinical consensus asks at least 70 %). No value = no data for that day.,trialwear_study_health,cgm",
  "bp_readings,Blood-pressure readings,count,Number of blood-pressure readings of the participant's local day (all the participant's monitors). No value = no data for that day.,trialwear_study_health,blood_pressure",
  // The conventions every page and export follows (issue #26), last.
  'no_data_vs_zero,No data and 0,,"A day the provider reports as 0 is 0 (Fitbit\'s daily activity series answer 0 for a day the tracker recorded nothing); a day the provider has no record for is no data: no row in the export, ""—"" on the pages, left out of averages. Tables, charts, overview tiles and exports apply the same rule.",trialwear_conventions,',
  'display_units,Values as the pages show them,,"In the CSV and Parquet files, value and unit are the provider\'s (distance in km, weight in kg). Where the portal\'s pages show another unit, display_value and display_unit give the figure the pages show: distance in mi (km / 1.609, two decimals), weight in Lbs (kg × 2.20462, one decimal). Every other metric is shown in its stored unit: display_value and display_unit are empty.",trialwear_conventions,',
];

/** The archives' generated_at. */
export const NOW = new Date('2026-04-02T08:15:30.000Z');
export const signal = () => new AbortController().signal;

export async function collect(run: (out: NodeJS.WritableStream) => Promise<unknown>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await run(out);
  return Buffer.concat(chunks);
}

export interface ArchiveWorld {
  teamId: number;
  trialId: number;
  ids: { a: number; b: number; c: number; other: number };
  /** A participant of the team's trial, with a hidden email and notes. */
  participant: (team: number, trialIdOf: number, email: string, code: string | null) => Promise<number>;
  /** The request over every participant (the other team's too) and four metrics, 28 to 30 March. */
  request: (mode: ArchiveRequest['mode']) => ArchiveRequest;
  /** The CSV lines each metric must give for `request`. */
  rowsOf: () => Record<'egv' | 'heart_rate_intraday' | 'sleep_stages' | 'steps', string[]>;
}

export async function archiveWorld(t: TestApp): Promise<ArchiveWorld> {
  const db = t.ctx.db;
  async function participant(team: number, trialIdOf: number, email: string, code: string | null) {
    return (
      await db
        .insertInto('participants')
        .values({
          team_id: team,
          trial_id: trialIdOf,
          email,
          notes: 'NOTE-SECRET of this participant',
          participant_code: code,
          participant_code_suffix: code === null ? null : code.slice(3),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  const teamId = await createTestTeam(t, 'Export Archive Team', { hiddenFields: ['email', 'notes'] });
  const otherTeam = await createTestTeam(t, 'Export Archive Other');
  const trial = (team: number, code: string) =>
    insertTrial(t, { teamId: team, number: code, name: code, code });
  const trialId = await trial(teamId, 'EXA');
  const otherTrial = await trial(otherTeam, 'EXD');
  // Created in an order different from the codes': the export orders by code.
  const a = await participant(teamId, trialId, SECRETS[0]!, 'EXA002');
  const b = await participant(teamId, trialId, SECRETS[1]!, 'EXA001');
  const c = await participant(teamId, trialId, SECRETS[2]!, null);
  const other = await participant(otherTeam, otherTrial, 'other@team.example', 'EXD001');
  const ids = { a, b, c, other };

  const catalogId = async (name: string) =>
    (
      await db
        .selectFrom('global_device_catalog')
        .select('id')
        .where('device_name', '=', name)
        .executeTakeFirstOrThrow()
    ).id;
  const link = async (participantId: number, team: number, provider: 'fitbit' | 'dexcom', device: string) =>
    (
      await db
        .insertInto('participant_devices')
        .values({
          participant_id: participantId,
          team_id: team,
          provider,
          global_device_catalog_id: await catalogId(device),
          authorization_status: 'authorized',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const devA = await link(a, teamId, 'fitbit', 'Fitbit Sense');
  const devB = await link(b, teamId, 'fitbit', 'Fitbit Smartwatches & Trackers');
  const devC = await link(c, teamId, 'dexcom', 'Dexcom G7 CGM');

  const r = (
    participant_id: number,
    participant_device_id: number | null,
    metric_key: string,
    utc: string,
    local: string,
    offset: number | null,
    value: number | null,
    extra: Partial<ReadingRow> = {},
  ): ReadingRow => ({
    participant_id,
    team_id: participant_id === other ? otherTeam : teamId,
    participant_device_id,
    metric_key,
    measured_at: new Date(utc),
    local_date: local.slice(0, 10),
    local_time: local.slice(11) || null,
    utc_offset_minutes: offset,
    value,
    ...extra,
  });
  await upsertReadings(db, [
    // B, London: the clocks go forward at 2026-03-29T01:00Z.
    r(b, devB, 'steps', '2026-03-27T00:00:00Z', '2026-03-27T00:00:00', 0, 1000, { provider: 'fitbit' }),
    r(b, devB, 'steps', '2026-03-28T00:00:00Z', '2026-03-28T00:00:00', 0, 8123, { provider: 'fitbit' }),
    r(b, devB, 'steps', '2026-03-29T00:00:00Z', '2026-03-29T00:00:00', 0, 10456),
    r(b, devB, 'steps', '2026-03-29T23:00:00Z', '2026-03-30T00:00:00', 60, 7001.5),
    r(b, devB, 'heart_rate_intraday', '2026-03-29T01:00:00Z', '2026-03-29T02:00:00', 60, 62),
    r(b, devB, 'heart_rate_intraday', '2026-03-29T00:59:00Z', '2026-03-29T00:59:00', 0, 61),
    r(b, devB, 'sleep_stages', '2026-03-29T00:00:00Z', '2026-03-29T00:00:00', 0, null, {
      value_json: { deep: 61, light: 212, startTime: '2026-03-28T22:30:00.000' },
    }),
    // A, Kiritimati (+14:00): local dates a day ahead of UTC.
    r(a, devA, 'heart_rate_intraday', '2026-03-27T10:30:00Z', '2026-03-28T00:30:00', 840, 70),
    r(a, devA, 'steps', '2026-03-29T10:00:00Z', '2026-03-30T00:00:00', 840, 5000),
    r(a, devA, 'steps', '2026-03-30T10:00:00Z', '2026-03-31T00:00:00', 840, 4000),
    // C, Los Angeles (-07:00), no code; one reading without a device link, with a fraction of a second.
    r(c, null, 'egv', '2026-03-31T06:55:00.500Z', '2026-03-30T23:55:00', -420, 104, {
      provider: 'dexcom',
      value_json: { recordId: 'r1' },
    }),
    r(c, devC, 'egv', '2026-03-28T06:00:00Z', '2026-03-27T23:00:00', -420, 99),
    // Another team's participant (asked for by mistake): never exported.
    r(other, null, 'steps', '2026-03-29T00:00:00Z', '2026-03-29T00:00:00', 0, 1),
  ]);

  const request = (mode: ArchiveRequest['mode']): ArchiveRequest => ({
    teamId,
    participantIds: [ids.a, ids.b, ids.c, ids.other],
    metricKeys: ['steps', 'heart_rate_intraday', 'sleep_stages', 'egv'],
    startDate: '2026-03-28',
    endDate: '2026-03-30',
    mode,
    jobParams: { fileName: 'study-export', startDate: '2026-03-28', endDate: '2026-03-30', exportMode: mode },
  });

  // None of these metrics is shown in another unit than its stored one: the display columns are empty.
  const rowsOf = () => withEmptyDisplay(rowsWithoutDisplay());
  const rowsWithoutDisplay = () => {
    const sleepJson = '"{""deep"": 61, ""light"": 212, ""startTime"": ""2026-03-28T22:30:00.000""}"';
    const fb = 'Fitbit Smartwatches & Trackers,fitbit';
    return {
      egv: [
        `#${ids.c},egv,2026-03-30,23:55:00,-07:00,2026-03-31T06:55:00.5Z,104,mg/dL,"{""recordId"": ""r1""}",,dexcom`,
      ],
      heart_rate_intraday: [
        `EXA001,heart_rate_intraday,2026-03-29,00:59:00,+00:00,2026-03-29T00:59:00Z,61,bpm,,${fb}`,
        `EXA001,heart_rate_intraday,2026-03-29,02:00:00,+01:00,2026-03-29T01:00:00Z,62,bpm,,${fb}`,
        'EXA002,heart_rate_intraday,2026-03-28,00:30:00,+14:00,2026-03-27T10:30:00Z,70,bpm,,Fitbit Sense,fitbit',
      ],
      sleep_stages: [
        `EXA001,sleep_stages,2026-03-29,00:00:00,+00:00,2026-03-29T00:00:00Z,,min,${sleepJson},${fb}`,
      ],
      steps: [
        `EXA001,steps,2026-03-28,00:00:00,+00:00,2026-03-28T00:00:00Z,8123,steps,,${fb}`,
        `EXA001,steps,2026-03-29,00:00:00,+00:00,2026-03-29T00:00:00Z,10456,steps,,${fb}`,
        `EXA001,steps,2026-03-30,00:00:00,+01:00,2026-03-29T23:00:00Z,7001.5,steps,,${fb}`,
        'EXA002,steps,2026-03-30,00:00:00,+14:00,2026-03-29T10:00:00Z,5000,steps,,Fitbit Sense,fitbit',
      ],
    };
  };

  return { teamId, trialId, ids, participant, request, rowsOf };
}

const withEmptyDisplay = <K extends string>(rows: Record<K, string[]>) =>
  Object.fromEntries(
    Object.entries<string[]>(rows).map(([k, lines]) => [k, lines.map((l) => `${l},,`)]),
  ) as Record<K, string[]>;
