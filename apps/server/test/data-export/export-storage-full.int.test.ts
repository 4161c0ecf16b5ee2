/*
 * A full or read-only export store (issue 27 item 4): the job fails at once
 * (no retry: a retry fails the same way) with the displayable text that the
 * storage is full or not writable and an administrator must act, the cause
 * is logged in one line (code, system call, path), and no partial file is
 * left. A read-only store reports EROFS, not the ENOENT of Node's recursive
 * mkdir. The store is a real tmpfs, mounted afresh for each test: one test
 * fills it up, the other remounts it read-only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXPORT_MESSAGES as M } from '@trialwear/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runExport } from '../../src/jobs/data-export/run-export.js';
import { canMountTmpfs, mountTmpfs, type SmallFilesystem } from '../support/small-filesystem.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { type ExportTeam, exportTeam } from './support/crashed-export.js';

const mountable = canMountTmpfs();

describe.skipIf(!mountable)('an export store that is full or read-only (a real tmpfs)', () => {
  let t: TestApp;
  let store: SmallFilesystem;
  let exportDir: string;

  beforeAll(async () => {
    exportDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-full-store-')), 'exports');
    t = await createTestApp({ listen: true, env: { EXPORT_DIR: exportDir } });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(path.dirname(exportDir), { recursive: true, force: true });
  });
  // Each test its own empty store on the app's EXPORT_DIR: a full or read-only one never outlives its test.
  beforeEach(() => {
    store = mountTmpfs(exportDir, 256 * 1024);
  });
  afterEach(() => {
    store?.unmount();
  });

  /** Runs the job, capturing what it logs on console.error. */
  async function runLogged(id: string) {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    });
    try {
      return { outcome: await runExport(t.ctx, id), lines };
    } finally {
      spy.mockRestore();
    }
  }
  const jobRow = (id: string) =>
    t.ctx.db.selectFrom('export_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  async function expectFailedForGood(x: ExportTeam, id: string) {
    const row = await jobRow(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, error_message: M.storageUnavailable });
    const listed = (await x.team.as.User.get('/api/dataExport/jobs')).json().data as Array<{
      id: string;
      error_message: string;
    }>;
    expect(listed.find((j) => j.id === id)?.error_message).toBe(M.storageUnavailable);
  }

  it('full: the job fails for good with the administrator text, one log line with ENOSPC and the file; no partial left', async () => {
    const x = await exportTeam(t, 'Store full');
    store.fill();
    const id = await x.request('User');
    const { outcome, lines } = await runLogged(id);
    expect(outcome).toEqual({ status: 'failed', error: M.storageUnavailable });
    await expectFailedForGood(x, id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^\\[trialwear\\] export ${id} failed: the export storage is full or not writable \\(ENOSPC write ${exportDir}/team-${x.team.teamId}/${id}\\.zip\\.[0-9a-f]{12}\\.partial\\)$`,
      ),
    );
    const teamDir = path.join(exportDir, `team-${x.team.teamId}`);
    expect(fs.readdirSync(teamDir)).toEqual([]);
  }, 60_000);

  it('read-only: EROFS from the mkdir of the team’s directory (not ENOENT), the same text', async () => {
    const x = await exportTeam(t, 'Store read-only');
    store.readOnly();
    const id = await x.request('User');
    const { outcome, lines } = await runLogged(id);
    expect(outcome).toEqual({ status: 'failed', error: M.storageUnavailable });
    await expectFailedForGood(x, id);
    expect(lines).toEqual([
      `[trialwear] export ${id} failed: the export storage is full or not writable (EROFS mkdir ${exportDir}/team-${x.team.teamId})`,
    ]);
  }, 60_000);
});
