import { describe, expect, it } from 'vitest';
import { findControlCharacter } from './input-guard.js';

describe('findControlCharacter', () => {
  it('gives the path of the first string with a control character', () => {
    expect(findControlCharacter({ a: 'ok', b: ['x', { c: 'bad\u0000' }] })).toBe('b.1.c');
    expect(findControlCharacter({ a: 'ok', n: 5, t: true, z: null })).toBeNull();
    expect(findControlCharacter('top\u001b')).toBe('');
    expect(findControlCharacter({ id: '1\u0000' }, [], 'params')).toBe('params.id');
  });

  it('lets the multi-line fields it is given keep tab and newlines, at the top level only', () => {
    expect(findControlCharacter({ notes: 'a\r\n\tb' }, ['notes'])).toBeNull();
    expect(findControlCharacter({ notes: 'a\u0000b' }, ['notes'])).toBe('notes');
    expect(findControlCharacter({ name: 'a\nb' }, ['notes'])).toBe('name');
    expect(findControlCharacter({ x: { notes: 'a\nb' } }, ['notes'])).toBe('x.notes');
    expect(findControlCharacter({ notes: ['a\nb'] }, ['notes'])).toBeNull();
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findControlCharacter(deep)?.split('.')).toHaveLength(200_000);
  });
});
