import { describe, expect, it } from 'vitest';
import { likePattern } from './repo';

describe('likePattern', () => {
  it('matches the term anywhere, ignoring case', () => {
    expect(likePattern('County')).toBe('%county%');
  });

  it('treats wildcards and backslashes in the term literally', () => {
    expect(likePattern('100%_a\\b')).toBe('%100\\%\\_a\\\\b%');
  });
});
