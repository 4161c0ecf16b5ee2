/*
 * Exports with format fhir and omh through the API (issue #25 items 1 and
 * 2): listed with their format, audited, and their ZIPs hold the FHIR Bulk
 * Data files / the Open mHealth data points the manifest counts; an unknown
 * format is refused with the contract's message and creates no job.
 * Its own app and team: its jobs do not share a team's export queue (and its
 * newest-first list) with export-api-runs.int.test.ts's.
 */
import { EXPORT_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateFhir } from '../../src/features/data-export/archive/fhir/validate.js';
import { runExport } from '../../src/jobs/data-export/run-export.js';
import type { TeamFixture } from '../support/fixtures.js';
import type { TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';
import { zipEntries } from './export-zip.js';
import { type ExportApiWorld, exportApiWorld } from './support/export-api-world.js';

const clock = testClock(new Date().toISOString());

describe('batch data export calls: formats fhir and omh', () => {
  let t: TestApp;
  let a: TeamFixture;
  let w: ExportApiWorld;

  beforeAll(async () => {
    w = await exportApiWorld(clock);
    ({ t, a } = w);
  }, 120_000);
  afterAll(() => t?.close());
  const newTrial = () => w.newTrial();
  const listedJob = (id: string) => w.listedJob(id);

  it('format fhir: listed with the job, audited, and the ZIP holds Patient, Device and Observation NDJSON', async () => {
    const { body } = await newTrial();
    const res = await a.as.User.post('/api/dataExport/batchDataExport', { ...body, format: 'fhir' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().jobId as string;
    expect((await listedJob(id)).job_params).toMatchObject({ format: 'fhir' });
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'data_export.requested')
      .where('entity_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(audit.after)).toContain('"format":"fhir"');

    expect(await runExport(t.ctx, id)).toMatchObject({ status: 'completed' });
    const dl = await a.as.User.get(`/api/dataExport/jobs/${id}/download`);
    expect(dl.statusCode).toBe(200);
    const entries = await zipEntries(dl.rawPayload);
    expect([...entries.keys()]).toEqual([
      'Patient.ndjson',
      'Device.ndjson',
      'Observation.ndjson',
      'data_dictionary.csv',
      'manifest.json',
    ]);
    const observations = entries
      .get('Observation.ndjson')!
      .toString('utf8')
      .split('\n')
      .slice(0, -1)
      .map((l) => JSON.parse(l));
    expect(observations).toHaveLength(8); // 2 participants × 4 days of steps
    for (const o of observations) {
      expect(() => validateFhir(o)).not.toThrow();
      expect(o.code.coding[0].code).toBe('41950-7');
    }
    expect(entries.get('Patient.ndjson')!.toString('utf8').split('\n').slice(0, -1)).toHaveLength(2);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    expect(manifest.export.format).toBe('fhir');
    expect(manifest.files.map((f: { name: string; rows: number }) => [f.name, f.rows])).toEqual([
      ['Patient.ndjson', 2],
      ['Device.ndjson', 2],
      ['Observation.ndjson', 8],
      ['data_dictionary.csv', expect.any(Number)],
    ]);
  });

  it('format omh: listed and audited with its format, the ZIP holds one file of data points per schema', async () => {
    const { body } = await newTrial();
    const res = await a.as.User.post('/api/dataExport/batchDataExport', { ...body, format: 'omh' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().jobId as string;
    expect((await listedJob(id)).job_params).toMatchObject({ format: 'omh' });
    expect(await runExport(t.ctx, id)).toMatchObject({ status: 'completed' });
    const dl = await a.as.User.get(`/api/dataExport/jobs/${id}/download`);
    const entries = await zipEntries(dl.rawPayload);
    expect([...entries.keys()]).toEqual(['step-count.ndjson', 'data_dictionary.csv', 'manifest.json']);
    const points = entries
      .get('step-count.ndjson')!
      .toString('utf8')
      .split('\n')
      .slice(0, -1)
      .map((l) => JSON.parse(l));
    expect(points).toHaveLength(8); // 2 participants × 4 days of steps
    expect(points[0].header.schema_id).toEqual({ namespace: 'omh', name: 'step-count', version: '3.0' });
  });

  it('an unknown format is refused with the contract’s message and creates no job', async () => {
    const { body } = await newTrial();
    const before = await t.ctx.db
      .selectFrom('export_jobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const res = await a.as.User.post('/api/dataExport/batchDataExport', { ...body, format: 'xml' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(EXPORT_MESSAGES.formatInvalid);
    const after = await t.ctx.db
      .selectFrom('export_jobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});
