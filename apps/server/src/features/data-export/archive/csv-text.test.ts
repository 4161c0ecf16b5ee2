/* pgFloat8 against PostgreSQL's float8 text (12+, extra_float_digits ≥ 1); the integration test compares it live. */
import { describe, expect, it } from 'vitest';
import { pgFloat8 } from './csv-text.js';

describe('pgFloat8', () => {
  it('writes the shortest text PostgreSQL writes, exponent form outside 1e-4 … 1e15', () => {
    expect(pgFloat8(123.456)).toBe('123.456');
    expect(pgFloat8(0.00012)).toBe('0.00012');
    expect(pgFloat8(9e-5)).toBe('9e-05');
    expect(pgFloat8(1.5e16)).toBe('1.5e+16');
    expect(pgFloat8(-0)).toBe('-0');
  });

  it('never a text exactly halfway to the next double (found by the binary COPY property test)', () => {
    // JavaScript's shortest, -4.61628143385175e+16, reads back as this double only by ties-to-even.
    expect(pgFloat8(-46162814338517500)).toBe('-4.6162814338517504e+16');
    expect(Number(pgFloat8(-46162814338517500))).toBe(-46162814338517500);
  });
});
