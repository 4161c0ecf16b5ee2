/*
 * A page of the trial's list sorted by Code or Email reads migration 028's
 * indexes in order instead of computing every participant's natural sort key
 * with a regular expression and sorting them all (16 ms a page at 5,000
 * participants; bench/participants-list.ts). The query's key must be written
 * exactly as the indexes are: a change to either and the plan sorts again.
 * The plans are of the repository's own SQL, on a small trial, with
 * sequential scans and sorts made as costly as PostgreSQL allows, so that the
 * planner takes an index whenever one gives the order. (That the order is the
 * table's: participants-window.int.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScope } from '../../src/access/system.js';
import { insertParticipants, trialParticipantsJson } from '../../src/features/participants/repo.js';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { explained, recordingDb } from '../support/recorded-queries.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe("a page sorted by a text column reads the column's index", () => {
  let t: TestApp;
  let team: TeamFixture;
  let trialId: number;

  beforeAll(async () => {
    t = await createTestApp();
    team = await teamWithRoles(t, 'Sort index', { hiddenFields: [] });
    trialId = (await team.as.Admin.post('/api/userTrials', { trialNumber: '1', trialName: 'Sort' })).json()
      .trialId;
    await insertParticipants(
      t.ctx.db,
      systemScope.trial('fixture', team.teamId, trialId),
      Array.from({ length: 40 }, (_, i) => ({
        email: `p${i}@x.example`,
        gender: 'None' as const,
        age: 30,
        notes: null,
        suffix: String(i),
        code: `S1-${i}`,
      })),
    );
  });
  afterAll(() => t?.close());

  /** The plan of the page query the repository runs for this sort. */
  async function planOf(by: 'participant_code' | 'email', desc: boolean): Promise<string> {
    const recorded = recordingDb(t.ctx.db);
    await trialParticipantsJson(recorded.db, {
      scope: { teamId: team.teamId, trialUserId: null } as never,
      trialId,
      hidden: [],
      page: { page: 1, pageSize: 10 },
      sort: { by, desc },
      now: new Date().toISOString(),
    });
    const client = await t.database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      await client.query('SET LOCAL enable_sort = off');
      // The page query's own text and parameters, explained.
      const page = explained(recorded.queries[0]!);
      const plan = await client.query<{ 'QUERY PLAN': string }>(page.sql, page.parameters as unknown[]);
      return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }

  it.each([
    ['participant_code', false, 'participants_trial_code_sort_idx'],
    ['participant_code', true, 'participants_trial_code_sort_desc_idx'],
    ['email', false, 'participants_trial_email_sort_idx'],
    ['email', true, 'participants_trial_email_sort_desc_idx'],
  ] as const)('by %s (descending: %s): %s in order, no sort of the trial', async (by, desc, index) => {
    const plan = await planOf(by, desc);
    expect(plan).toContain(`Index Scan using ${index} on participants`);
    expect(plan).not.toMatch(/Sort Key: .*natural_sort_key/);
  });
});
