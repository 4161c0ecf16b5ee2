/*
 * The export job tests' world (export-job.int.test.ts,
 * export-job-queue.int.test.ts), built by each file in its own database: team
 * A (emails and notes hidden; stores Fitbit steps and distance, Omron blood
 * pressure, Dexcom glucose) and another team; trials of their own with
 * participants linked to the simulators; the export's download and job row;
 * the archive checked against its manifest.
 */
import { createHash } from 'node:crypto';
import { utcDate } from '@trialwear/zone';
import { expect } from 'vitest';
import { teamWithRoles } from '../../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../../support/linked-participant.js';
import { storeMetrics } from '../../support/stored-metrics.js';
import { createTestApp } from '../../support/test-app.js';
import { parseCsv, zipEntries } from '../export-zip.js';

export const DAY = 86_400_000;
/** The UTC date `days` days before now. */
export const dateAgo = (days: number) => utcDate(Date.now() - days * DAY);
const HEADER = [
  'participant_code',
  'metric_key',
  'local_date',
  'local_time',
  'utc_offset',
  'measured_at_utc',
  'value',
  'unit',
];

export async function exportJobWorld() {
  const t = await createTestApp({ listen: true });
  // Emails hidden: the team keeps placeholders, and the export must not carry even those.
  const a = await teamWithRoles(t, 'Export jobs', { hiddenFields: ['email', 'notes'] });
  const other = await teamWithRoles(t, 'Export jobs other', { hiddenFields: [] });
  const devices = new Map<string, number>(); // device name → id
  await storeMetrics(a, 'Fitbit Sense', ['steps', 'distance']);
  await storeMetrics(a, 'Omron Blood Pressure Monitor', ['systolic', 'diastolic', 'pulse']);
  await storeMetrics(a, 'Dexcom G7 CGM', ['egv']);
  for (const d of (await a.as.User.get('/api/dataExport/devices')).json() as Array<{
    id: number;
    friendlyName: string;
  }>)
    devices.set(d.friendlyName, d.id);
  let trialSeq = 0;

  /**
   * A trial of team A of its own for one test: three participants (their emails hidden) linked to the
   * given providers, none of whose data is stored yet; `request` asks an export of its first two.
   */
  async function newTrial(providers: Array<'fitbit' | 'omron' | 'dexcom'>) {
    trialSeq += 1;
    const originalEmails = ['hidden.one', 'hidden.two', 'hidden.three'].map(
      (name) => `${name}.${trialSeq}@private.example`,
    );
    const { trialId, ids } = await trialWithParticipants(
      a,
      `Export jobs ${trialSeq}`,
      originalEmails,
      String(trialSeq),
    );
    const users = new Map<string, string>(); // `${provider}:${participantId}` → simulator user id
    for (const id of ids)
      for (const p of providers) users.set(`${p}:${id}`, await linkParticipant(t, a, id, p));
    const codes = new Map<number, string>();
    const storedEmails: string[] = [];
    for (const p of await t.ctx.db
      .selectFrom('participants')
      .select(['id', 'participant_code', 'email'])
      .where('trial_id', '=', trialId)
      .execute()) {
      codes.set(p.id, p.participant_code ?? `#${p.id}`);
      storedEmails.push(p.email);
    }
    const request = async (change: Record<string, unknown>, role: 'User' | 'Admin' = 'User') => {
      const res = await a.as[role].post('/api/dataExport/batchDataExport', {
        trialId,
        participantIds: [ids[0], ids[1]],
        exportMode: 'single-tab',
        fileName: 'study',
        ...change,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().jobId as string;
    };
    return { ids, users, codes, emails: [...storedEmails, ...originalEmails], request };
  }

  const zipOf = async (id: string) => {
    const res = await a.as.User.get(`/api/dataExport/jobs/${id}/download`);
    expect(res.statusCode, res.body).toBe(200);
    return zipEntries(res.rawPayload);
  };
  const jobRow = (id: string) =>
    t.ctx.db.selectFrom('export_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** Every entry checked against the manifest, none holding an email; answers the data CSVs' rows by file name. */
  function verify(files: Map<string, Buffer>, emails: string[]) {
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
    expect(manifest.generated_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    const listed = manifest.files as Array<{ name: string; rows: number; sha256: string }>;
    expect(listed.map((f) => f.name).sort()).toEqual(
      [...files.keys()].filter((n) => n !== 'manifest.json').sort(),
    );
    for (const f of listed) {
      const data = files.get(f.name)!;
      expect(createHash('sha256').update(data).digest('hex'), f.name).toBe(f.sha256);
      expect(parseCsv(data.toString('utf8')).rows.length, f.name).toBe(f.rows);
    }
    const all = [...files.values()].map((b) => b.toString('utf8')).join('\n');
    for (const email of emails) expect(all).not.toContain(email);
    const data = new Map<string, Record<string, string>[]>();
    for (const [name, buf] of files) {
      if (name === 'manifest.json' || name === 'data_dictionary.csv') continue;
      const csv = parseCsv(buf.toString('utf8'));
      expect(csv.header.slice(0, HEADER.length)).toEqual(HEADER);
      data.set(name, csv.rows);
    }
    return { manifest, data };
  }

  return { t, a, other, devices, newTrial, zipOf, jobRow, verify };
}

export type ExportJobWorld = Awaited<ReturnType<typeof exportJobWorld>>;
