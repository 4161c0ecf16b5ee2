/*
 * No participant data left behind (issue 27 item 3), directory store: a
 * crashed export's `*.partial` file does not survive its job being cancelled
 * or deleted. The daily expiry job removes it, and counts it in the team's
 * audit row (files, bytes); the partial of a job still running (live lease)
 * and a partial written within the last lease stay. The expiry of a file is
 * audited too (data_export.expired). The sweep looks at every team's store
 * and the tests move the clock, so each test has an app, a clock and a team
 * of its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportStorage, storageKeyOf } from '../../src/features/data-export/service.js';
import { expireExports } from '../../src/jobs/data-export/job.js';
import * as repo from '../../src/jobs/data-export/repo.js';
import { LEASE_MS, runExport } from '../../src/jobs/data-export/run-export.js';
import { auditRows } from '../support/audit.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';
import { crashMidWrite, type ExportTeam, exportTeam } from './support/crashed-export.js';

describe('orphaned export temporaries (directory store)', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const t of apps.splice(0)) await t.close();
  });

  /** An app on a clock of this test's own, with a team whose users request exports. */
  async function setUp() {
    const clock = testClock(new Date().toISOString());
    const t = await createTestApp({ listen: true, now: clock.now });
    apps.push(t);
    const x: ExportTeam = await exportTeam(t, 'Orphans dir');
    const partials = (jobId: string) => {
      const dir = path.join(t.dataDir, 'exports', `team-${x.team.teamId}`);
      return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith(jobId)) : [];
    };
    const sweepAudits = () =>
      auditRows(t.ctx.db, 'data_export.temporaries_removed', [
        'team_id',
        'user_id',
        'entity_type',
        'entity_id',
        'after',
      ]);
    return { clock, t, x, partials, sweepAudits };
  }

  it('the partials of a cancelled and of a deleted crashed job go; a running job’s stays; counted in the audit row', async () => {
    const { clock, t, x, partials, sweepAudits } = await setUp();
    const { team } = x;
    // A crashed job, then cancelled by its requester.
    const cancelled = await x.request('User');
    await crashMidWrite(t, team.teamId, cancelled, 300_000);
    expect((await team.as.User.post(`/api/dataExport/jobs/${cancelled}/cancel`)).statusCode).toBe(200);
    // A crashed job, cancelled and then deleted: its row is gone.
    const deleted = await x.request('Admin');
    await crashMidWrite(t, team.teamId, deleted, 200_000);
    expect((await team.as.Admin.post(`/api/dataExport/jobs/${deleted}/cancel`)).statusCode).toBe(200);
    expect((await team.as.Admin.delete(`/api/dataExport/jobs/${deleted}`)).statusCode).toBe(200);
    // A job still running: its worker renews the lease.
    const running = await x.request('Sys_Admin');
    const worker = await crashMidWrite(t, team.teamId, running, 100_000);
    for (const id of [cancelled, deleted, running]) expect(partials(id)).toHaveLength(1);

    // A minute on: every partial is older than the lease; the running job's lease is renewed.
    clock.advance(60_000);
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    expect(await repo.heartbeat(t.ctx.db, running, worker.owner, now, leaseUntil)).toBe(true);

    expect(await expireExports(t.ctx)).toEqual({ expired: 0, temporaries: { files: 2, bytes: 500_000 } });
    expect(partials(cancelled)).toEqual([]);
    expect(partials(deleted)).toEqual([]);
    expect(partials(running)).toHaveLength(1);
    expect(await sweepAudits()).toEqual([
      {
        team_id: team.teamId,
        user_id: null,
        entity_type: 'export_storage',
        entity_id: `team-${team.teamId}`,
        after: { files: 2, bytes: 500_000, jobIds: [cancelled, deleted].sort() },
      },
    ]);

    // Its worker dies: once the lease is over, its partial goes too, but not while it was written within the lease.
    clock.advance(LEASE_MS + 1_000);
    const [name] = partials(running);
    const file = path.join(t.dataDir, 'exports', `team-${team.teamId}`, name!);
    const writtenAgo = (ms: number) => {
      const at = new Date(clock.now().getTime() - ms);
      fs.utimesSync(file, at, at);
    };
    writtenAgo(LEASE_MS - 5_000);
    expect((await expireExports(t.ctx)).temporaries).toEqual({ files: 0, bytes: 0 });
    expect(partials(running)).toHaveLength(1);
    writtenAgo(LEASE_MS + 1_000);
    expect((await expireExports(t.ctx)).temporaries).toEqual({ files: 1, bytes: 100_000 });
    expect(partials(running)).toEqual([]);
    expect((await sweepAudits()).map((a) => a.after)).toEqual([
      { files: 2, bytes: 500_000, jobIds: [cancelled, deleted].sort() },
      { files: 1, bytes: 100_000, jobIds: [running] },
    ]);
    // Nothing else was touched, and a second sweep finds nothing.
    expect(await expireExports(t.ctx)).toEqual({ expired: 0, temporaries: { files: 0, bytes: 0 } });
    expect(await sweepAudits()).toHaveLength(2);
  }, 60_000);

  it('a file past its 7 days: removed, its job expired, with an audit row', async () => {
    const { clock, t, x } = await setUp();
    const id = await x.request('User');
    expect(await runExport(t.ctx, id)).toMatchObject({ status: 'completed' });
    const key = storageKeyOf(x.team.teamId, id);
    clock.advance(7 * 86_400_000 + 60_000);
    expect(await expireExports(t.ctx)).toEqual({ expired: 1, temporaries: { files: 0, bytes: 0 } });
    expect(await exportStorage(t.ctx.config).open(key)).toBeNull();
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['team_id', 'user_id', 'entity_type', 'after'])
      .where('action', '=', 'data_export.expired')
      .where('entity_id', '=', id)
      .execute();
    expect(audit).toEqual([
      {
        team_id: x.team.teamId,
        user_id: null,
        entity_type: 'export_job',
        after: { status: 'expired', storageKey: key },
      },
    ]);
  }, 60_000);
});
