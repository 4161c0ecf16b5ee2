/*
 * Limits kept in PostgreSQL, so several servers count as one: a route's
 * per-IP limit and the sign-in lockout.
 */
import { SFA_MESSAGES } from '@trialwear/contract';
import { expect, it } from 'vitest';
import { MAX_FAILED_ATTEMPTS } from '../../src/features/auth/lockout.js';
import { DEMO_PASSWORD } from '../../src/seed/demo.js';
import { HttpSession } from '../support/processes.js';
import type { Cluster } from './cluster.js';

export function sharedLimitsCases(cl: Cluster) {
  it('the per-IP limit of a route is one budget for both servers (contact: 5 a minute)', async () => {
    const { a, b } = cl;
    const visitor = new HttpSession(a.base);
    const answers: number[] = [];
    for (let i = 0; i < 6; i++)
      answers.push(
        (await (i % 2 ? visitor.via(b.base) : visitor).post('/api/contactUs', contact(`${i}`))).status,
      );
    // Three on each server: in memory each would have allowed all three; together the sixth is over.
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('six failed sign-ins spread over both servers lock the account as five on one would', async () => {
    const { a, b, db } = cl;
    const answers: number[] = [];
    for (let i = 0; i < MAX_FAILED_ATTEMPTS + 1; i++) {
      const server = i % 2 === 0 ? a : b;
      answers.push((await new HttpSession(server.base).post('/api/auth/login', wrongLogin())).status);
    }
    // Four refused, the fifth locks (423), the sixth is refused by the lock.
    expect(answers).toEqual([401, 401, 401, 401, 423, 423]);
    for (const server of [a, b]) {
      const right = await new HttpSession(server.base).post('/api/auth/login', {
        username: 'viewer',
        password: DEMO_PASSWORD,
      });
      expect(right.status).toBe(423);
      expect(((await right.json()) as { message: string }).message).toBe(SFA_MESSAGES.locked);
    }
    const { rows } = await db.query("SELECT lock_count FROM login_lockouts WHERE username_key = 'viewer'");
    expect(rows).toEqual([{ lock_count: 1 }]);
  });
}

function contact(tag: string) {
  return {
    firstName: 'Scale',
    lastName: 'Tester',
    email: `scale-${tag}@x.example`,
    subject: 'Scale out',
    message: `Several servers, one budget (${tag}).`,
  };
}

function wrongLogin() {
  return { username: 'viewer', password: 'Wrong-pass1!' };
}
