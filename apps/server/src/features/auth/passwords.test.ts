import { describe, expect, it, onTestFinished } from 'vitest';
import {
  dummyPasswordHash,
  hashPassword,
  PASSWORD_HASH_COST,
  setPasswordHashCost,
  TEST_PASSWORD_HASH_COST,
  verifyPassword,
} from './passwords.js';

describe('password hashes', () => {
  it('the portal hashes with argon2id at OWASP’s minimum (m=19456 KiB, t=2, p=1)', async () => {
    setPasswordHashCost(PASSWORD_HASH_COST);
    onTestFinished(() => setPasswordHashCost(TEST_PASSWORD_HASH_COST));
    const h = await hashPassword('Strong-pw1!');
    expect(h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(h, 'Strong-pw1!')).toBe(true);
    expect(await verifyPassword(h, 'Strong-pw2!')).toBe(false);
    expect(await dummyPasswordHash()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('the tests’ own processes hash at the lowest cost (vitest.setup.ts); either kind verifies', async () => {
    const cheap = await hashPassword('Strong-pw1!');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await dummyPasswordHash()).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await verifyPassword(cheap, 'Strong-pw1!')).toBe(true);
    expect(await verifyPassword('not a hash', 'Strong-pw1!')).toBe(false);
  });
});
