import { SERVICE_UNAVAILABLE } from '@trialwear/contract';
import { describe, expect, it } from 'vitest';
import { DATABASE_MESSAGES, toAppError } from './errors.js';

/** What node-postgres throws: an Error with the SQLSTATE as `code`. */
const pgError = (code: string, extra: { constraint?: string; detail?: string } = {}) =>
  Object.assign(new Error(`database refused (${code})`), { code, ...extra });

describe('database errors a service did not map (the safety net)', () => {
  it.each([
    ['23505', {}, 409, DATABASE_MESSAGES.duplicate, 'Conflict'],
    [
      '23503',
      { detail: 'Key (trial_id)=(7) is not present in table "trials".' },
      404,
      DATABASE_MESSAGES.referenceMissing,
      'NotFound',
    ],
    [
      '23503',
      { detail: 'Key (id)=(7) is still referenced from table "participants".' },
      409,
      DATABASE_MESSAGES.stillReferenced,
      'Conflict',
    ],
    ['22021', {}, 400, DATABASE_MESSAGES.invalidValue, 'ValidationError'],
    ['22P05', {}, 400, DATABASE_MESSAGES.invalidValue, 'ValidationError'],
    ['22001', {}, 400, DATABASE_MESSAGES.invalidValue, 'ValidationError'],
    ['22003', {}, 400, DATABASE_MESSAGES.invalidValue, 'ValidationError'],
    ['23514', {}, 400, DATABASE_MESSAGES.invalidValue, 'ValidationError'],
    ['40P01', {}, 409, DATABASE_MESSAGES.concurrent, 'Conflict'],
    ['40001', {}, 409, DATABASE_MESSAGES.concurrent, 'Conflict'],
  ] as const)('%s %o → %i', (code, extra, status, message, reason) => {
    const e = toAppError(pgError(code, extra));
    expect({ status: e.statusCode, message: e.message, reason: e.reason }).toEqual({
      status,
      message,
      reason,
    });
    expect(e.options.displayToUser).toBe(true);
  });

  it('the database out of reach is a 503 people may read, with Retry-After (issue 27)', () => {
    for (const err of [
      pgError('57P01'), // terminated by an administrator
      pgError('53300'), // too many connections
      pgError('08006'), // connection failure
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
    ]) {
      const e = toAppError(err);
      expect(e.statusCode).toBe(503);
      expect(e.reason).toBe('ServiceUnavailable');
      expect(e.message).toBe(SERVICE_UNAVAILABLE.message);
      expect(e.options.displayToUser).toBe(true);
      expect(e.options.headers).toEqual({ 'retry-after': String(SERVICE_UNAVAILABLE.retryAfterSeconds) });
    }
  });

  it('anything else from the database stays a 500 that shows nothing', () => {
    for (const code of ['XX000', 'P0001', '57014']) {
      const e = toAppError(pgError(code));
      expect(e.statusCode).toBe(500);
      expect(e.message).toBe('Database error');
      expect(e.options.displayToUser).toBe(false);
    }
  });

  it('a plain error is a 500 "Internal server error"', () => {
    expect(toAppError(new TypeError('x is undefined'))).toMatchObject({
      statusCode: 500,
      message: 'Internal server error',
    });
  });
});
