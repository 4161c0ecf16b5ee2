import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idSchema, idSchemaWith, MAX_ID } from './ids.js';

const refusal = (value: unknown) => {
  const r = idSchema.safeParse(value);
  return r.success ? r.data : [...new Set(r.error.issues.map((i) => i.message))];
};

describe('idSchema', () => {
  it('takes decimal text and JSON integers in 1 … 2³¹−1', () => {
    for (const [value, id] of [
      ['1', 1],
      ['10', 10],
      [String(MAX_ID), MAX_ID],
      [1, 1],
      [MAX_ID, MAX_ID],
    ] as const)
      expect(idSchema.parse(value), JSON.stringify(value)).toBe(id);
  });

  it('refuses every other text that Number() would read, with "Invalid id"', () => {
    for (const value of [
      ' 1',
      '1 ',
      '0x10',
      '1e3',
      '+1',
      '-1',
      '1.0',
      '01',
      '0',
      '',
      '１',
      '1_000',
      'Infinity',
      'NaN',
    ])
      expect(refusal(value), JSON.stringify(value)).toEqual(['Invalid id']);
  });

  it('refuses numbers that are not positive integers, too large ids, and other types', () => {
    for (const value of [
      0,
      -1,
      1.5,
      MAX_ID + 1,
      String(MAX_ID + 1),
      '9'.repeat(30),
      null,
      undefined,
      true,
      [1],
      {},
    ])
      expect(refusal(value), JSON.stringify(value)).toEqual(['Invalid id']);
  });

  it('a field may name its own refusal; too large stays "Invalid id"', () => {
    const teamId = idSchemaWith('Team is required');
    expect(teamId.safeParse('').error?.issues[0]?.message).toBe('Team is required');
    expect(teamId.safeParse(0).error?.issues[0]?.message).toBe('Team is required');
    expect(teamId.safeParse(MAX_ID + 1).error?.issues[0]?.message).toBe('Invalid id');
  });

  it('documents what it takes (OpenAPI): an integer or its decimal text', () => {
    expect(z.toJSONSchema(idSchema, { io: 'input' })).toMatchObject({
      anyOf: [
        { type: 'integer', exclusiveMinimum: 0, maximum: MAX_ID },
        { type: 'string', pattern: '^[1-9][0-9]*$' },
      ],
    });
  });
});
