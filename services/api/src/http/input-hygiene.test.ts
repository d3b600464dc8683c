import { describe, expect, it } from 'vitest';
import { findControlCharacter } from './input-hygiene';

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) value = { a: [value] };
  return value;
}

describe('findControlCharacter', () => {
  it('names the first string or key holding a control character', () => {
    expect(findControlCharacter({ name: 'ok', list: ['fine', 'a\u0000b'] })).toBe('list.1');
    expect(findControlCharacter({ a: { 'b\u0001': 1 }, c: '\u0002' })).toBe('a.b\u0001');
    expect(findControlCharacter({ a: 'tab\tline\nreturn\r' })).toBeUndefined();
    expect(findControlCharacter('\u007f')).toBe('');
    expect(findControlCharacter({ a: 1 }, ['body'])).toBeUndefined();
    expect(findControlCharacter({ a: '\u0000' }, ['body'])).toBe('body.a');
  });

  // tests/fuzz/openapi-fuzz.test.ts: a body nested 3,000 levels deep (15 KB) overflowed the
  // recursive walk's stack, and every route with a body answered 500.
  it('walks a body nested far deeper than the call stack', () => {
    expect(findControlCharacter(nested(100_000, 'fine'))).toBeUndefined();
    const path = findControlCharacter(nested(100_000, '\u0000'));
    expect(path?.split('.')).toHaveLength(200_000);
  });
});
