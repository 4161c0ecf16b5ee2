/*
 * No participant data left behind (issue 27 item 3), S3 store (s3rver, a
 * real S3-compatible HTTP server, with ListMultipartUploads and
 * AbortMultipartUpload from test/support/s3rver-multipart.ts): a crashed
 * export's incomplete multipart upload (its parts hold the data) does not
 * survive its job being cancelled or deleted. The expiry job aborts it and
 * counts it in the team's audit row (bytes unknown: null); the upload of a
 * job still running stays, and so do uploads that are not an export job's
 * (other keys under the prefix, keys outside it).
 */
import {
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageKeyOf } from '../../src/features/data-export/service.js';
import { expireExports } from '../../src/jobs/data-export/job.js';
import * as repo from '../../src/jobs/data-export/repo.js';
import { LEASE_MS } from '../../src/jobs/data-export/run-export.js';
import { auditRows } from '../support/audit.js';
import { S3_BUCKET as BUCKET, type S3Store, s3Store } from '../support/s3-store.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';
import { until } from '../support/until.js';
import { crashMidWrite, type ExportTeam, exportTeam } from './support/crashed-export.js';

const clock = testClock(new Date().toISOString());
const PREFIX = 'trialwear/';
const MiB = 1024 * 1024;

describe('orphaned export temporaries (S3 store)', () => {
  let t: TestApp;
  let x: ExportTeam;
  let store: S3Store;
  const uploads = async () =>
    ((await store.client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }))).Uploads ?? [])
      .map((u) => u.Key!)
      .sort();
  const keyOf = (jobId: string) => `${PREFIX}${storageKeyOf(x.team.teamId, jobId)}`;
  const sweepAudits = () =>
    auditRows(t.ctx.db, 'data_export.temporaries_removed', ['team_id', 'entity_id', 'after']);

  beforeAll(async () => {
    store = await s3Store('tw-s3rver-orphans-');
    t = await createTestApp({ listen: true, now: clock.now, env: store.env({ EXPORT_S3_PREFIX: PREFIX }) });
    x = await exportTeam(t, 'Orphans S3');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await store?.close();
  });

  /** A crashed run whose writer had started a multipart upload (more than a part, 8 MiB, written). */
  async function crashedUpload(jobId: string) {
    const crashed = await crashMidWrite(t, x.team.teamId, jobId, 9 * MiB);
    await until(async () => (await uploads()).includes(keyOf(jobId)), `the upload of ${jobId}`);
    return crashed;
  }

  it('the uploads of a cancelled and of a deleted crashed job are aborted; a running job’s and foreign ones stay; counted in the audit row', async () => {
    const { team } = x;
    const cancelled = await x.request('User');
    await crashedUpload(cancelled);
    expect((await team.as.User.post(`/api/dataExport/jobs/${cancelled}/cancel`)).statusCode).toBe(200);
    const deleted = await x.request('Admin');
    await crashedUpload(deleted);
    expect((await team.as.Admin.post(`/api/dataExport/jobs/${deleted}/cancel`)).statusCode).toBe(200);
    expect((await team.as.Admin.delete(`/api/dataExport/jobs/${deleted}`)).statusCode).toBe(200);
    const running = await x.request('Sys_Admin');
    const worker = await crashedUpload(running);
    // Someone else's uploads in the bucket: under the prefix but not an export job's key, and outside the prefix.
    const foreign = [`${PREFIX}reports/q3.pdf`, `elsewhere/${storageKeyOf(team.teamId, cancelled)}`];
    for (const Key of foreign) {
      const { UploadId } = await store.client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key }));
      await store.client.send(
        new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber: 1, Body: 'x' }),
      );
    }

    clock.advance(60_000);
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    expect(await repo.heartbeat(t.ctx.db, running, worker.owner, now, leaseUntil)).toBe(true);

    expect(await expireExports(t.ctx)).toEqual({ expired: 0, temporaries: { files: 2, bytes: null } });
    expect(await uploads()).toEqual([keyOf(running), ...foreign].sort());
    expect(await sweepAudits()).toEqual([
      {
        team_id: team.teamId,
        entity_id: `team-${team.teamId}`,
        after: { files: 2, bytes: null, jobIds: [cancelled, deleted].sort() },
      },
    ]);

    // Its worker dies: once the lease is over, its upload is aborted too.
    clock.advance(LEASE_MS + 1_000);
    expect((await expireExports(t.ctx)).temporaries).toEqual({ files: 1, bytes: null });
    expect(await uploads()).toEqual([...foreign].sort());
    expect((await sweepAudits()).map((a) => a.after)).toEqual([
      { files: 2, bytes: null, jobIds: [cancelled, deleted].sort() },
      { files: 1, bytes: null, jobIds: [running] },
    ]);
  }, 90_000);
});
