/*
 * Export jobs whose worker dies mid-write (issue 27's orphaned temporaries):
 * a team with a linked Fitbit participant whose users request exports, and
 * crashMidWrite(), which leaves what a worker killed mid-write leaves: the
 * job claimed (processing, a lease), part of its file written through the
 * export storage's writer, then nothing: neither commit nor abort.
 */
import { randomBytes } from 'node:crypto';
import type { Role } from '@trialwear/contract';
import { expect } from 'vitest';
import { exportStorage, storageKeyOf } from '../../../src/features/data-export/service.js';
import { claimJob } from '../../../src/jobs/data-export/run-export.js';
import { type TeamFixture, teamWithRoles } from '../../support/fixtures.js';
import { linkParticipant, trialWithParticipants } from '../../support/linked-participant.js';
import { storeMetrics } from '../../support/stored-metrics.js';
import type { TestApp } from '../../support/test-app.js';

export interface ExportTeam {
  team: TeamFixture;
  /** A job requested by the team's user of that role (pending). */
  request: (who: Role) => Promise<string>;
}

export async function exportTeam(t: TestApp, name: string): Promise<ExportTeam> {
  const team = await teamWithRoles(t, name, { hiddenFields: [] });
  await storeMetrics(team, 'Fitbit Sense', ['steps']);
  const { trialId, ids } = await trialWithParticipants(team, name, [
    `${name.replace(/\W+/g, '-')}@x.example`,
  ]);
  await linkParticipant(t, team, ids[0]!, 'fitbit');
  const devices = (await team.as.User.get('/api/dataExport/devices')).json() as Array<{
    id: number;
    friendlyName: string;
  }>;
  const deviceId = devices.find((d) => d.friendlyName === 'Fitbit Sense')!.id;
  const dateAgo = (days: number) =>
    new Date(t.ctx.now().getTime() - days * 86_400_000).toISOString().slice(0, 10);
  return {
    team,
    async request(who) {
      const res = await team.as[who].post('/api/dataExport/batchDataExport', {
        trialId,
        deviceId,
        participantIds: ids,
        startDate: dateAgo(3),
        endDate: dateAgo(2),
        metrics: ['steps'],
        fileName: 'orphan test',
        exportMode: 'single-tab',
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().jobId as string;
    },
  };
}

/** Claims the job and writes `bytes` of its file, then "dies": the lease owner, to renew the lease as a live worker would. */
export async function crashMidWrite(t: TestApp, teamId: number, jobId: string, bytes: number) {
  const claim = await claimJob(t.ctx, jobId);
  if (!claim.ok) throw new Error(`job ${jobId} not claimed: ${JSON.stringify(claim.outcome)}`);
  const writer = await exportStorage(t.ctx.config).createWriter(storageKeyOf(teamId, jobId));
  await new Promise<void>((resolve, reject) =>
    writer.stream.write(randomBytes(bytes), (err) => (err ? reject(err) : resolve())),
  );
  return { owner: claim.owner, writer };
}
