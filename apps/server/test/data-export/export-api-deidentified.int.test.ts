/*
 * De-identified exports through the API (issue #25 item 5, decision 049):
 * `deidentify: true` shifts each participant's dates by that participant's
 * whole number of days (0–364) from the trial's secret, made sealed and
 * audited on the trial's first such export and the same in every later
 * one; values are unchanged; the job lists it. An Admin's trial policy
 * "only de-identified exports" refuses an export with real dates (403,
 * the contract's message, no job, audited); only Admins set it.
 */
import { EXPORT_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport } from '../../src/jobs/data-export/run-export.js';
import type { TeamFixture } from '../support/fixtures.js';
import type { TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';
import { zipEntries } from './export-zip.js';
import { type ExportApiWorld, exportApiWorld } from './support/export-api-world.js';

const clock = testClock(new Date().toISOString());
const DAY_MS = 86_400_000;

describe('batch data export calls: de-identified', () => {
  let t: TestApp;
  let a: TeamFixture;
  let w: ExportApiWorld;

  beforeAll(async () => {
    w = await exportApiWorld(clock);
    ({ t, a } = w);
  }, 120_000);
  afterAll(() => t?.close());

  /** Requests, runs and downloads an export: its CSV rows (code, date, instant, value) and manifest. */
  const exported = async (body: Record<string, unknown>) => {
    const res = await a.as.User.post('/api/dataExport/batchDataExport', body);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().jobId as string;
    expect(await runExport(t.ctx, id)).toMatchObject({ status: 'completed' });
    const entries = await zipEntries((await a.as.User.get(`/api/dataExport/jobs/${id}/download`)).rawPayload);
    const rows = entries
      .get('data.csv')!
      .toString('utf8')
      .split('\n')
      .slice(1, -1)
      .map((l) => {
        const f = l.split(',');
        return { code: f[0]!, date: f[2]!, at: f[5]!, value: f[6]! };
      });
    return { id, rows, manifest: JSON.parse(entries.get('manifest.json')!.toString('utf8')) };
  };
  const shiftsOf = (plain: { code: string; date: string; at: string }[], shifted: typeof plain) => {
    const days = new Map<string, Set<number>>();
    plain.forEach((p, i) => {
      const s = shifted[i]!;
      expect(s.code).toBe(p.code);
      const d = (Date.parse(`${s.date}T00:00:00Z`) - Date.parse(`${p.date}T00:00:00Z`)) / DAY_MS;
      expect(Date.parse(s.at) - Date.parse(p.at)).toBe(d * DAY_MS);
      days.set(p.code, (days.get(p.code) ?? new Set()).add(d));
    });
    return days;
  };

  it("shifts each participant's dates by its own days, the same in every export of the trial, values unchanged", async () => {
    const { trialId, body } = await w.newTrial();
    const plain = await exported(body);
    const first = await exported({ ...body, deidentify: true });
    const again = await exported({ ...body, deidentify: true, exportMode: 'single-tab' });
    expect(plain.rows.length).toBe(8);
    expect(first.rows.map((r) => r.value)).toEqual(plain.rows.map((r) => r.value));
    const days = shiftsOf(plain.rows, first.rows);
    expect(days.size).toBe(2);
    for (const set of days.values()) {
      expect(set.size, 'one shift per participant').toBe(1);
      const [d] = [...set];
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(365);
    }
    expect(again.rows).toEqual(first.rows);
    // The manifest: shifted, without the real range; the job list says so.
    expect(first.manifest.export.dates_shifted).toBe(true);
    expect(JSON.stringify(first.manifest)).not.toContain(String(body.startDate));
    const listed = await w.listedJob(first.id);
    expect(listed.job_params.deidentify).toBe(true);
    // The trial's secret: sealed, made once, audited once.
    const trial = await t.ctx.db
      .selectFrom('trials')
      .select('date_shift_key_enc')
      .where('id', '=', trialId)
      .executeTakeFirstOrThrow();
    expect(trial.date_shift_key_enc).toMatch(/^v2\./);
    const made = await t.ctx.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'trial.date_shift_key_created')
      .where('entity_id', '=', String(trialId))
      .execute();
    expect(made).toHaveLength(1);
  });

  it('another trial: other shifts (its own secret)', async () => {
    const one = await w.newTrial();
    const two = await w.newTrial();
    const shift = async (body: Record<string, unknown>) =>
      [
        ...shiftsOf(
          (await exported(body)).rows,
          (await exported({ ...body, deidentify: true })).rows,
        ).values(),
      ].map((s) => [...s][0]);
    const [x, y] = [await shift(one.body), await shift(two.body)];
    // Four independent draws of 0–364 all equal pairwise is a 1-in-365² chance; the secrets differ.
    expect(x).not.toEqual(y);
  });

  it('a trial whose Admin allows only de-identified exports refuses real dates (403, no job), accepts shifted ones', async () => {
    const { trialId, body } = await w.newTrial();
    const userTry = await a.as.User.put(`/api/dataExport/trials/${trialId}/policy`, {
      allowIdentifiedExports: false,
    });
    expect(userTry.statusCode).toBe(403);
    const bad = await a.as.Admin.put(`/api/dataExport/trials/${trialId}/policy`, {
      allowIdentifiedExports: 'no',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(EXPORT_MESSAGES.policyInvalid);
    const set = await a.as.Admin.put(`/api/dataExport/trials/${trialId}/policy`, {
      allowIdentifiedExports: false,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({
      success: true,
      message: EXPORT_MESSAGES.policySaved,
      allowIdentifiedExports: false,
    });
    const trials = (await a.as.User.get('/api/dataExport/trials')).json() as Array<{
      trialId: number;
      allowIdentifiedExports: boolean;
    }>;
    expect(trials.find((x) => x.trialId === trialId)?.allowIdentifiedExports).toBe(false);
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('action', '=', 'trial.export_policy')
      .where('entity_id', '=', String(trialId))
      .executeTakeFirstOrThrow();
    expect([audit.before, audit.after]).toEqual([
      { allowIdentifiedExports: true },
      { allowIdentifiedExports: false },
    ]);

    const before = await w.jobsTotal();
    const refused = await a.as.User.post('/api/dataExport/batchDataExport', body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(EXPORT_MESSAGES.identifiedNotAllowed);
    expect(await w.jobsTotal()).toBe(before);
    // The refusal is audited (after the answer is sent: waited for), with the message.
    let denial: { after: unknown } | undefined;
    for (let i = 0; i < 100 && !denial; i++) {
      denial = await t.ctx.db
        .selectFrom('audit_log')
        .select('after')
        .where('action', '=', 'access.denied')
        .where('entity_id', '=', 'POST /api/dataExport/batchDataExport')
        .where('user_id', '=', a.userIds.User)
        .executeTakeFirst();
      if (!denial) await new Promise((r) => setTimeout(r, 20));
    }
    expect(denial?.after).toMatchObject({ status: 403, message: EXPORT_MESSAGES.identifiedNotAllowed });
    expect((await exported({ ...body, deidentify: true })).manifest.export.dates_shifted).toBe(true);
    // Another team's Admin: the same 404 as a trial that does not exist.
    const stranger = await w.b.as.Admin.put(`/api/dataExport/trials/${trialId}/policy`, {
      allowIdentifiedExports: true,
    });
    expect(stranger.statusCode).toBe(404);
  });
});
