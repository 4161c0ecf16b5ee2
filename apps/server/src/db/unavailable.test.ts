import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    [
      'an administrator terminating the backend',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['a crash shutdown', withCode('57P02')],
    ['a server starting up', withCode('57P03', 'the database system is starting up')],
    ['too many connections', withCode('53300')],
    ['a connection exception (class 08)', withCode('08006')],
    ['a connection closed under a query', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    [
      'a client whose connection died',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    [
      'every address refusing',
      Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), {}),
    ],
  ])('%s is the database being unavailable', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['a serialization failure', withCode('40001')],
    ['a file-system error of the export store', withCode('ENOSPC')],
    ['a plain bug', new TypeError('x is undefined')],
    ['nothing', undefined],
    ['a string', 'ECONNREFUSED'],
  ])('%s is not', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
