import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default algorithm) with OWASP's minimum parameters: what the portal uses. */
export const PASSWORD_HASH_COST = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2id at its lowest cost, for the tests' own fixtures only (vitest.setup.ts): about 1 ms a
 * hash instead of 30 ms of CPU, where the unit and integration layers hash or check about 1,900
 * passwords a run. A hash carries its parameters, so either kind verifies. The tests that are
 * about the cost itself (lockout's equal-time check, the parameters' own test) set the portal's.
 */
export const TEST_PASSWORD_HASH_COST = { memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

type Cost = typeof PASSWORD_HASH_COST | typeof TEST_PASSWORD_HASH_COST;
let cost: Cost = PASSWORD_HASH_COST;

/** Tests only: the cost of the hashes made from now on in this process. */
export function setPasswordHashCost(next: Cost): void {
  cost = next;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, cost);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verifying against this costs the same as a real check, so unknown usernames are not faster. */
const dummyHashes = new Map<Cost, Promise<string>>();
export function dummyPasswordHash(): Promise<string> {
  let dummy = dummyHashes.get(cost);
  if (!dummy) {
    dummy = hashPassword('not-a-real-password-Aa1!');
    dummyHashes.set(cost, dummy);
  }
  return dummy;
}
