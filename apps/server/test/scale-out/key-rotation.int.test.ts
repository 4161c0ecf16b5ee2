/*
 * rotate-encryption-key's work (security/key-rotation.ts) on TOTP seeds and
 * provider tokens: batches, resumable, undecryptable values counted and left
 * as they are, a value changed meanwhile never overwritten; and a TOTP seed
 * no configured key opens is a refused code, never a 500. (The CLI and the
 * tokens across real processes: scale-out.int.test.ts.)
 */
import { randomBytes } from 'node:crypto';
import { SFA_MESSAGES } from '@trialwear/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpAt } from '../../src/features/sfa/totp.js';
import { decryptSecret, encryptSecret, keyId } from '../../src/security/encryption.js';
import { rotateEncryptionKey } from '../../src/security/key-rotation.js';
import { FIXTURE_PASSWORD, identityTeams, type NewTestUser } from '../support/fixtures.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { testClock } from '../support/test-clock.js';

const clock = testClock('2026-05-04T08:00:00Z');

describe('rotating the encryption key', () => {
  let t: TestApp;
  let newUser: NewTestUser;
  const newKey = randomBytes(32);
  const lostKey = randomBytes(32);

  const seedOf = async (id: number) =>
    (
      await t.ctx.db
        .selectFrom('users')
        .select('sfa_secret_enc')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).sfa_secret_enc!;

  beforeAll(async () => {
    t = await createTestApp({ now: clock.now });
    ({ newUser } = await identityTeams(t));
  });
  afterAll(() => t.close());

  it('re-seals every TOTP seed under the new key in batches; a second run has nothing to do', async () => {
    // Two users with an authenticator set up through the real flow (sealed with the app's key).
    const users: Array<{ id: number; username: string; secret: string }> = [];
    for (let i = 0; i < 2; i++) {
      const u = await newUser();
      const c = t.client();
      expect((await c.login(u.username, FIXTURE_PASSWORD)).message).toBe('SFAIsNotSet');
      const setup = (await c.get('/api/auth/secondFactorSetup')).json();
      expect(
        (await c.post('/api/auth/verifyTOTP', { sfaToken: totpAt(setup.key, clock.now()) })).statusCode,
      ).toBe(200);
      users.push({ ...u, secret: setup.key });
    }
    // A third whose seed was sealed with a key nobody has any more.
    const lost = await newUser();
    const lostSeed = encryptSecret(lostKey, 'JBSWY3DPEHPK3PXP');
    await t.ctx.db.updateTable('users').set({ sfa_secret_enc: lostSeed }).where('id', '=', lost.id).execute();

    const keys = { encryptionKey: newKey, previousKeys: [t.ctx.secrets.encryptionKey] };
    const first = await rotateEncryptionKey(t.ctx.db, keys, { batchSize: 1 });
    expect(first.keyId).toBe(keyId(newKey));
    expect(first.tables.users).toEqual({ resealed: 2, undecryptable: 1, changedMeanwhile: 0 });
    expect(first.batches).toBe(3);
    for (const u of users) {
      const stored = await seedOf(u.id);
      expect(stored.startsWith(`v2.${keyId(newKey)}.`)).toBe(true);
      expect(decryptSecret(newKey, stored)).toBe(u.secret);
    }
    // Left exactly as it was, for whoever finds the key.
    expect(await seedOf(lost.id)).toBe(lostSeed);

    const second = await rotateEncryptionKey(t.ctx.db, keys, { batchSize: 1 });
    expect(second.tables.users).toEqual({ resealed: 0, undecryptable: 1, changedMeanwhile: 0 });
    expect(second.tables.provider_tokens).toEqual({ resealed: 0, undecryptable: 0, changedMeanwhile: 0 });

    // The app still runs with the old key only: the re-sealed seed is unreadable to it. The sign-in
    // answers the invalid-code message (the emailed code remains), never a 500.
    const c = t.client();
    expect((await c.login(users[0]!.username, FIXTURE_PASSWORD)).message).toBe('SFAValidateCodeNeeded');
    const res = await c.post('/api/auth/validateTOTP', { sfaToken: totpAt(users[0]!.secret, clock.now()) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SFA_MESSAGES.invalidCode);
  });
});
