import { describe, expect, it } from 'vitest';
import { parsePartialJson } from './partial-json';

describe('parsePartialJson', () => {
  it('grows with the text: unfinished strings kept, unfinished numbers, literals and keys left out', () => {
    const text = '```json\n{"name": "Ada Lovelace", "age": 36, "tags": ["math", "poetry"], "active": true, "note": null}\n```';
    const seen = new Set<string>();
    for (let end = 0; end <= text.length; end++) seen.add(JSON.stringify(parsePartialJson(text.slice(0, end)) ?? null));
    const values = [...seen];
    expect(values).toContain(JSON.stringify({ name: 'Ada' }));
    expect(values).toContain(JSON.stringify({ name: 'Ada Lovelace', age: 36, tags: ['math', 'po'] }));
    // A number at the end of the text may still grow: never 3 before 36.
    expect(values).not.toContain(JSON.stringify({ name: 'Ada Lovelace', age: 3 }));
    // A literal is only taken whole.
    expect(values.some((value) => value.includes('"active":false'))).toBe(false);
    expect(parsePartialJson(text)).toEqual({ name: 'Ada Lovelace', age: 36, tags: ['math', 'poetry'], active: true, note: null });
  });

  it('reads escapes, leaves out an unfinished one and half a surrogate pair', () => {
    expect(parsePartialJson('{"a": "line\\nnext \\u00e9')).toEqual({ a: 'line\nnext é' });
    expect(parsePartialJson('{"a": "x\\')).toEqual({ a: 'x' });
    expect(parsePartialJson('{"a": "x\\u00')).toEqual({ a: 'x' });
    expect(parsePartialJson('{"a": "\uD83D')).toEqual({ a: '' });
  });

  it('no object or array yet, or prose only: nothing', () => {
    expect(parsePartialJson('')).toBeUndefined();
    expect(parsePartialJson('Sure, here it is')).toBeUndefined();
    expect(parsePartialJson('Sure: [')).toEqual([]);
  });

  it('stops at broken JSON and keeps what came before', () => {
    expect(parsePartialJson('{"a": 1, "b": oops, "c": 3}')).toEqual({ a: 1 });
    expect(parsePartialJson('[1, 2,, 3]')).toEqual([1, 2]);
  });

  it('a __proto__ key is data, never the prototype', () => {
    const value = parsePartialJson('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('deep nesting ends the read instead of the stack', () => {
    const deep = '['.repeat(100_000);
    expect(() => parsePartialJson(deep)).not.toThrow();
  });
});
