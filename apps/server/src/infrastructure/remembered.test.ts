import { describe, expect, it } from 'vitest';
import { remembered } from './remembered';

describe('remembered', () => {
  it('answers a key it knows from memory, and keeps at most max answers', () => {
    const asked: string[] = [];
    const lengthOf = remembered(3, (key) => (asked.push(key), key.length));
    expect([lengthOf('a'), lengthOf('bb'), lengthOf('a')]).toEqual([1, 2, 1]);
    expect(asked).toEqual(['a', 'bb']);
    // A fourth key finds three kept: memory starts again, so 'a' is worked out afresh.
    lengthOf('ccc');
    lengthOf('dddd');
    lengthOf('a');
    expect(asked).toEqual(['a', 'bb', 'ccc', 'dddd', 'a']);
  });
});
