/*
 * Orphaned temporaries of export files (issue 27). A worker killed mid-export
 * leaves its unfinished write (a `*.partial` file, an incomplete S3 multipart
 * upload) holding participant data. The job's next run removes it, but a job
 * cancelled or deleted instead of retried never runs again, and the file
 * stayed for good. The daily expiry job sweeps them: an unfinished write is
 * removed when its job is not running (no processing row with a live lease)
 * and it is older than the lease (a file not written for that long, an
 * upload started that long ago), so a writer that has just started, or whose
 * job was claimed between the listing and the check, is never touched. Only
 * export jobs' keys are considered: a bucket shared with others under an
 * empty prefix loses nothing of theirs. One audit row per team that lost
 * temporaries counts them (files, bytes when the store knows them).
 */
import type { AppContext } from '../../app-context.js';
import { recordAudit } from '../../audit/audit-log.js';
import { exportStorage } from '../../features/data-export/service.js';
import * as repo from './repo.js';
import { LEASE_MS } from './run-export.js';

/** An export job's key (storageKeyOf): `team-3/<job uuid>.zip`. */
const JOB_KEY = /^team-(\d+)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.zip$/;

export interface SweptTemporaries {
  /** Temporary files or incomplete uploads removed. */
  files: number;
  /** Their bytes; null where the store does not tell them (S3). */
  bytes: number | null;
}

export async function sweepOrphanedTemporaries(ctx: AppContext): Promise<SweptTemporaries> {
  const storage = exportStorage(ctx.config);
  const writes = await storage.listUnfinished();
  if (writes.length === 0) return { files: 0, bytes: 0 };
  const now = ctx.now();
  // Read after the listing: a job claimed meanwhile counts as running, so its writes stay.
  const running = await repo.runningJobIds(ctx.db, now);
  const byTeam = new Map<number, { files: number; bytes: number | null; jobIds: Set<string> }>();
  for (const w of writes) {
    const m = JOB_KEY.exec(w.key);
    if (!m) continue;
    const [teamId, jobId] = [Number(m[1]), m[2]!];
    if (running.has(jobId) || now.getTime() - w.since.getTime() <= LEASE_MS) continue;
    await storage.removeUnfinished(w);
    const team = byTeam.get(teamId) ?? { files: 0, bytes: 0, jobIds: new Set<string>() };
    team.files += 1;
    team.bytes = team.bytes === null || w.bytes === null ? null : team.bytes + w.bytes;
    team.jobIds.add(jobId);
    byTeam.set(teamId, team);
  }
  let files = 0;
  let bytes: number | null = 0;
  for (const [teamId, team] of byTeam) {
    // After the removal: a crash between leaves the files gone unrecorded, and the next sweep finds none of them.
    await recordAudit(ctx.db, {
      userId: null,
      teamId,
      action: 'data_export.temporaries_removed',
      entityType: 'export_storage',
      entityId: `team-${teamId}`,
      after: { files: team.files, bytes: team.bytes, jobIds: [...team.jobIds].sort() },
    });
    files += team.files;
    bytes = bytes === null || team.bytes === null ? null : bytes + team.bytes;
  }
  return { files, bytes };
}
