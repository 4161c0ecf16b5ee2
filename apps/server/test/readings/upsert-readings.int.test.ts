/*
 * upsertReadings on a real database: every column stored as given, the same
 * reading twice stored once (and a re-fetch writes nothing), a changed value
 * updated, a key repeated within one batch kept once, batches larger than one
 * statement chunked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReadingRow, UPSERT_CHUNK, upsertReadings } from '../../src/features/readings/repo.js';
import { createTestTeam, insertTrial } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('upsertReadings', () => {
  let t: TestApp;
  let teamId: number;
  let trialId: number;
  const base = Date.parse('2026-03-29T00:30:00Z');
  let participantSeq = 0;

  /** A participant of its own for one test: its reading `row(i)` and everything stored for it (`all()`). */
  async function newParticipant() {
    participantSeq += 1;
    const participantId = (
      await t.ctx.db
        .insertInto('participants')
        .values({ team_id: teamId, trial_id: trialId, email: `u${participantSeq}@x.example` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const row = (i: number, value = i): ReadingRow => ({
      participant_id: participantId,
      team_id: teamId,
      metric_key: 'egv',
      measured_at: new Date(base + i * 60_000),
      local_date: '2026-03-29',
      local_time: '01:30:00',
      utc_offset_minutes: 60,
      value,
    });
    const all = () =>
      t.ctx.db
        .selectFrom('device_readings')
        .selectAll()
        .where('participant_id', '=', participantId)
        .execute();
    return { row, all };
  }

  beforeAll(async () => {
    t = await createTestApp();
    teamId = await createTestTeam(t, 'Upsert Team');
    trialId = await insertTrial(t, { teamId, number: '1', name: 'U', code: 'U1' });
  });
  afterAll(() => t.close());

  it('stores every column as given; the same readings again write nothing', async () => {
    const { row, all } = await newParticipant();
    const sleep: ReadingRow = {
      ...row(0),
      metric_key: 'sleep_stages',
      value: null,
      value_json: { deep: 61, light: 212 },
      local_time: null,
      utc_offset_minutes: null,
    };
    expect(await upsertReadings(t.ctx.db, [row(1), sleep])).toBe(2);
    const stored = await all();
    expect(stored).toHaveLength(2);
    expect(stored.find((r) => r.metric_key === 'sleep_stages')).toMatchObject({
      measured_at: new Date(base),
      local_date: '2026-03-29',
      local_time: null,
      value: null,
      value_json: { deep: 61, light: 212 },
    });
    expect(stored.find((r) => r.metric_key === 'egv')).toMatchObject({
      team_id: teamId,
      measured_at: new Date(base + 60_000),
      local_time: '01:30:00',
      utc_offset_minutes: 60,
      value: 1,
    });
    expect(await upsertReadings(t.ctx.db, [row(1), sleep])).toBe(0);
    expect(await all()).toHaveLength(2);
  });

  it('updates a changed value in place; a key repeated in one batch keeps its last row', async () => {
    const { row, all } = await newParticipant();
    expect(await upsertReadings(t.ctx.db, [row(1)])).toBe(1);
    expect(await upsertReadings(t.ctx.db, [row(1, 70), row(2, 5), row(2, 6)])).toBe(2);
    const hr = (await all()).filter((r) => r.metric_key === 'egv');
    expect(hr.map((r) => r.value).sort()).toEqual([6, 70]);
  });

  it('chunks a batch larger than one statement', async () => {
    const { row, all } = await newParticipant();
    const rows = Array.from({ length: UPSERT_CHUNK + 250 }, (_, i) => row(1000 + i));
    expect(await upsertReadings(t.ctx.db, rows)).toBe(rows.length);
    expect(await upsertReadings(t.ctx.db, rows)).toBe(0);
    expect((await all()).length).toBe(rows.length);
  });
});
