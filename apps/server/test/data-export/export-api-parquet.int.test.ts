/*
 * An export with format parquet through the API (issue #24 item 4): listed
 * with its format, audited, and its ZIP holds one Parquet file per metric
 * with the rows the manifest counts; a request without the field is CSV.
 * Its own app and team: its jobs do not share a team's export queue (and its
 * newest-first list) with export-api-runs.int.test.ts's.
 */
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport } from '../../src/jobs/data-export/run-export.js';
import type { TeamFixture } from '../support/fixtures.js';
import type { TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';
import { zipEntries } from './export-zip.js';
import { type ExportApiWorld, exportApiWorld } from './support/export-api-world.js';

const clock = testClock(new Date().toISOString());

describe('batch data export calls: format parquet', () => {
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

  it('format parquet: listed with the job, audited, and the ZIP holds one Parquet file per metric', async () => {
    const { body } = await newTrial();
    const res = await a.as.User.post('/api/dataExport/batchDataExport', { ...body, format: 'parquet' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().jobId as string;
    expect((await listedJob(id)).job_params).toMatchObject({ format: 'parquet', exportMode: 'single-tab' });
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'data_export.requested')
      .where('entity_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(audit.after)).toContain('"format":"parquet"');
    // A request without the field is CSV.
    const csv = await a.as.User.post('/api/dataExport/batchDataExport', body);
    expect((await listedJob(csv.json().jobId)).job_params.format).toBe('csv');
    const cancelled = await a.as.User.post(`/api/dataExport/jobs/${csv.json().jobId}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    expect(await runExport(t.ctx, id)).toMatchObject({ status: 'completed' });
    const dl = await a.as.User.get(`/api/dataExport/jobs/${id}/download`);
    expect(dl.statusCode).toBe(200);
    const entries = await zipEntries(dl.rawPayload);
    expect([...entries.keys()]).toEqual(['steps.parquet', 'data_dictionary.csv', 'manifest.json']);
    const file = entries.get('steps.parquet')!;
    const rows = await parquetReadObjects({
      file: file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer,
      columns: ['metric_key', 'value'],
    });
    expect(rows).toHaveLength(8); // 2 participants × 4 days of steps
    expect(new Set(rows.map((r) => r.metric_key))).toEqual(new Set(['steps']));
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    expect(manifest.export.format).toBe('parquet');
    expect(manifest.files[0]).toMatchObject({ name: 'steps.parquet', rows: 8 });
  });
});
