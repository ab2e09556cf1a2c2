import { describe, expect, it } from 'vitest';
import { parseLocalReference, resolveLocalReference } from './local-reference';

describe('local $ref', () => {
  it('reads #, #/$defs/<name> and #/definitions/<name>, pointer-escaped and percent-encoded', () => {
    expect(parseLocalReference('#')).toBe('#');
    expect(parseLocalReference('#/$defs/address')).toEqual({ source: '$defs', name: 'address' });
    expect(parseLocalReference('#/definitions/a~1b~0c')).toEqual({ source: 'definitions', name: 'a/b~c' });
    expect(parseLocalReference('#/$defs/two%20words')).toEqual({ source: '$defs', name: 'two words' });
  });

  it('refuses what is not a local definition', () => {
    for (const reference of ['https://example.com/s.json', '#/$defs/a/properties/b', '#/properties/a', '#/$defs/%E0%A4%A', 42, '']) expect(parseLocalReference(reference)).toBeUndefined();
  });

  it('resolves against the root, never through inherited names', () => {
    const root = { $defs: { address: { type: 'object' } }, definitions: { legacy: { type: 'string' } } };
    expect(resolveLocalReference(root, '#/$defs/address')).toEqual({ type: 'object' });
    expect(resolveLocalReference(root, '#/definitions/legacy')).toEqual({ type: 'string' });
    expect(resolveLocalReference(root, '#')).toBe(root);
    expect(resolveLocalReference(root, '#/$defs/toString')).toBeUndefined();
    expect(resolveLocalReference(root, '#/$defs/missing')).toBeUndefined();
  });
});
