import { afterEach, describe, expect, it, vi } from 'vitest';
import { unhandledRejectionGuard } from './process-guard.js';

describe('the unhandled-rejection guard', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reports a write lost to a database outage in one line and lets the process carry on', () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
    const guard = unhandledRejectionGuard('trialwear-worker');
    expect(() =>
      guard(Object.assign(new Error('the database system is shutting down'), { code: '57P03' })),
    ).not.toThrow();
    expect(() => guard(new Error('Connection terminated unexpectedly'))).not.toThrow();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[trialwear-worker\] .*lost to an outage \(57P03\)/);
  });

  it('rethrows anything else, so the process ends as by default', () => {
    const guard = unhandledRejectionGuard('trialwear');
    const bug = new TypeError('x is undefined');
    expect(() => guard(bug)).toThrow(bug);
    expect(() => guard(Object.assign(new Error('duplicate key'), { code: '23505' }))).toThrow(
      'duplicate key',
    );
  });
});
