import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../relay/store/index.js';

describe('what every store computes the same way', () => {
  it('canonicalJson is independent of key order but not of values', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
  });
});
