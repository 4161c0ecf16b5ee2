/*
 * Parallel requests (issue #9): team limits are reached exactly, never
 * passed; concurrent duplicates and deletes racing adds end as the spec's
 * 404/409 answers, never as a 500.
 */
import { PARTICIPANT_MESSAGES, TRIAL_MESSAGES } from '@trialwear/contract';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TeamFixture, teamWithRoles } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

type Res = { statusCode: number; json: () => { message?: string } };

/** Status → count, e.g. { 200: 10, 403: 40 }. */
const tally = (responses: Res[]) =>
  responses.reduce<Record<number, number>>((acc, r) => {
    acc[r.statusCode] = (acc[r.statusCode] ?? 0) + 1;
    return acc;
  }, {});

const messagesOf = (responses: Res[], status: number) =>
  new Set(responses.filter((r) => r.statusCode === status).map((r) => r.json().message));

/** Waits until `n` transactions wait for a lock on the table. */
async function waitForBlockedInserts(client: pg.Client, table: string, n: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_locks WHERE relation = $1::regclass AND NOT granted',
      [table],
    );
    if (rows[0]!.n >= n) return;
    if (Date.now() > deadline) throw new Error(`only ${rows[0]!.n} of ${n} inserts reached the lock`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('parallel requests', () => {
  let t: TestApp;
  let limited: TeamFixture; // max 5 trials
  let counted: TeamFixture; // participant limit = current + 10
  let free: TeamFixture; // no limits

  beforeAll(async () => {
    t = await createTestApp();
    limited = await teamWithRoles(t, 'Race Limited', { maxTrials: 5, hiddenFields: [] });
    counted = await teamWithRoles(t, 'Race Counted', { hiddenFields: [] });
    free = await teamWithRoles(t, 'Race Free', { hiddenFields: [] });
  });
  afterAll(() => t.close());

  const rowsOfTeam = async (table: 'trials' | 'participants', teamId: number) =>
    (await t.ctx.db.selectFrom(table).select('id').where('team_id', '=', teamId).execute()).length;

  const newTrial = async (f: TeamFixture, trialNumber: string, trialName = 'Race') => {
    const res = await f.as.Admin.post('/api/userTrials', { trialNumber, trialName });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().trialId as number;
  };

  it('50 parallel participant adds reach the team limit (current + 10) exactly', async () => {
    const trialId = await newTrial(counted, 'P1');
    for (let i = 0; i < 3; i++) {
      const res = await counted.as.Admin.post('/api/trialParticipants', {
        trialId,
        email: `seed${i}@x.example`,
      });
      expect(res.statusCode).toBe(200);
    }
    await t.ctx.db
      .updateTable('teams')
      .set({ max_participants: 13 })
      .where('id', '=', counted.teamId)
      .execute();

    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        counted.as.Admin.post('/api/trialParticipants', { trialId, email: `p${i}@x.example` }),
      ),
    );
    expect(tally(responses)).toEqual({ 200: 10, 403: 40 });
    expect(messagesOf(responses, 403)).toEqual(new Set([PARTICIPANT_MESSAGES.limitReached]));
    expect(await rowsOfTeam('participants', counted.teamId)).toBe(13);
  });

  it('30 parallel trial creations with max_trials 5 give exactly 5 trials', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        limited.as.Admin.post('/api/userTrials', { trialNumber: `L${i}`, trialName: 'Limit' }),
      ),
    );
    expect(tally(responses)).toEqual({ 200: 5, 409: 25 });
    expect(messagesOf(responses, 409)).toEqual(new Set([TRIAL_MESSAGES.limitReached]));
    expect(await rowsOfTeam('trials', limited.teamId)).toBe(5);
  });

  it('the same trial number 10 times at once: one trial, nine times the 409 of the spec', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        free.as.Admin.post('/api/userTrials', { trialNumber: 'SAME-1', trialName: 'Same' }),
      ),
    );
    expect(tally(responses)).toEqual({ 200: 1, 409: 9 });
    expect(messagesOf(responses, 409)).toEqual(new Set([TRIAL_MESSAGES.numberTaken]));
  });

  it('trials whose generated codes collide, created at once: each gets its own code', async () => {
    // "7", "7-", "7." … are different numbers with the same code proposal (initials + "7").
    const numbers = ['7', '7-', '7.', '7/', '7_', '7#', '7+', '7*'];
    const responses = await Promise.all(
      numbers.map((trialNumber) =>
        free.as.Admin.post('/api/userTrials', { trialNumber, trialName: 'Code Clash' }),
      ),
    );
    expect(tally(responses)).toEqual({ 200: numbers.length });
    const codes = responses.map(
      (r) => (r.json() as unknown as { trial: { trial_code: string } }).trial.trial_code,
    );
    expect(new Set(codes).size).toBe(numbers.length);
  });

  it('the same participant code at once: one participant, the others get the code-taken 409', async () => {
    const trialId = await newTrial(free, 'CODES');
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        free.as.Admin.post('/api/trialParticipants', {
          trialId,
          email: `code${i}@x.example`,
          codeSuffix: '42',
        }),
      ),
    );
    expect(tally(responses)).toEqual({ 200: 1, 409: 7 });
  });

  it('the same participant-account username at once: one account, the same answer to all', async () => {
    // The answer never says whether a name was taken (no enumeration): each sign-up answers 200 and
    // does its work after answering. A SHARE lock holds every insert until all four wait on it.
    const owner = await t.connectAs('owner');
    try {
      await owner.query('BEGIN');
      await owner.query('LOCK TABLE participant_accounts IN SHARE MODE');
      const responses = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          // Each from its own address: the sign-up's rate limit is per address.
          t
            .client()
            .post('/api/Participants/signup', {
              username: 'same.participant',
              email: `same${i}@participant.example`,
              password: 'Secret-pw1!',
              confirmPassword: 'Secret-pw1!',
            }),
        ),
      );
      expect(tally(responses)).toEqual({ 200: 4 });
      await waitForBlockedInserts(owner, 'participant_accounts', 4);
      await owner.query('COMMIT');
    } finally {
      await owner.end();
    }
    // One account; the three others were told by email that the name is taken (audited).
    const end = Date.now() + 10_000;
    let taken = 0;
    while (Date.now() < end) {
      taken = (
        await t.ctx.db
          .selectFrom('audit_log')
          .select('id')
          .where('action', '=', 'participant_account.signup.username_taken')
          .execute()
      ).length;
      if (taken === 3) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(taken).toBe(3);
    const accounts = await t.ctx.db
      .selectFrom('participant_accounts')
      .select('id')
      .where('username', '=', 'same.participant')
      .execute();
    expect(accounts).toHaveLength(1);
  });

  it('deleting a trial while participants are added: 404 for late adds, 409 for a late delete, never a 500', async () => {
    for (let round = 0; round < 12; round++) {
      const trialId = await newTrial(free, `DEL-${round}`);
      const [del, ...adds] = await Promise.all([
        free.as.Admin.delete('/api/userTrials', { trialId }),
        ...Array.from({ length: 4 }, (_, i) =>
          free.as.Admin.post('/api/trialParticipants', { trialId, email: `d${round}-${i}@x.example` }),
        ),
      ]);
      const added = adds.filter((r) => r.statusCode === 200).length;
      for (const r of adds) expect([200, 404], r.body).toContain(r.statusCode);
      if (del.statusCode === 200) {
        expect(added).toBe(0);
        expect(messagesOf(adds, 404)).toEqual(new Set([TRIAL_MESSAGES.notFound]));
      } else {
        expect(del.statusCode, del.body).toBe(409);
        expect(del.json().message).toBe(TRIAL_MESSAGES.hasParticipants);
        expect(added).toBeGreaterThan(0);
      }
      const left = await t.ctx.db
        .selectFrom('participants')
        .select('id')
        .where('trial_id', '=', trialId)
        .execute();
      expect(left).toHaveLength(added);
    }
  });

  it('deleting a trial while a trial user is added: a 404, never a 500', async () => {
    const { email: userEmail } = await t.ctx.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', free.userIds.User)
      .executeTakeFirstOrThrow();
    for (let round = 0; round < 12; round++) {
      const trialId = await newTrial(free, `TU-${round}`);
      const [del, add] = await Promise.all([
        free.as.Admin.delete('/api/userTrials', { trialId }),
        free.as.Admin.post('/api/trialUsers', { trialId, userEmail }),
      ]);
      expect(del.statusCode, del.body).toBe(200);
      expect([200, 404], add.body).toContain(add.statusCode);
    }
  });

  it('editing or deleting a participant while it is deleted: 404, never a 500, one delete audited', async () => {
    const trialId = await newTrial(free, 'EDITDEL');
    for (let round = 0; round < 12; round++) {
      const id = (
        await free.as.Admin.post('/api/trialParticipants', { trialId, email: `e${round}@x.example` })
      ).json().participantId as number;
      const [del, edit, del2] = await Promise.all([
        free.as.Admin.delete('/api/participant', { id }),
        free.as.Admin.put('/api/participant', { id, age: 40, notes: `round ${round}` }),
        free.as.Admin.delete('/api/participant', { id }),
      ]);
      expect([del.statusCode, del2.statusCode].sort()).toEqual([200, 404]);
      expect([200, 404], edit.body).toContain(edit.statusCode);
      const audited = await t.ctx.db
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', 'participant.delete')
        .where('entity_id', '=', String(id))
        .execute();
      expect(audited).toHaveLength(1);
    }
  });
});
