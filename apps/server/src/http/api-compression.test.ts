import { describe, expect, it } from 'vitest';
import { brotliQuality, chooseEncoding } from './api-compression.js';

describe('the encoding of large /api answers', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['GZIP', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0', null],
    ['gzip;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['deflate', null],
  ] as const)('Accept-Encoding %j → %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

describe('the brotli quality of a large /api answer', () => {
  it('is 4 below 1 MiB and 2 from 1 MiB (the study-health tables of big trials)', () => {
    expect(brotliQuality(16 * 1024)).toBe(4);
    expect(brotliQuality(1024 * 1024 - 1)).toBe(4);
    expect(brotliQuality(1024 * 1024)).toBe(2);
    expect(brotliQuality(12 * 1024 * 1024)).toBe(2);
  });
});
