import { TRUNCATION_MARKER } from '@keel/reliability/internal';
import { describe, expect, it } from 'vitest';
import { AGENT_DEFAULTS } from '../defaults';
import { serializeToolResult } from './serialize-tool-result';

const invalid = (value: unknown) => {
  const result = serializeToolResult(value);
  if (result.ok) throw new Error(`expected a refusal, got ${result.text}`);
  return result.message;
};

describe('serializeToolResult', () => {
  it('sends strings as they are, undefined as empty, data as JSON', () => {
    expect(serializeToolResult('plain')).toEqual({ ok: true, text: 'plain', truncated: false });
    expect(serializeToolResult(undefined)).toEqual({ ok: true, text: '', truncated: false });
    expect(serializeToolResult({ a: [1, null, undefined], b: undefined, d: new Date(0) })).toEqual({
      ok: true,
      text: '{"a":[1,null,null],"d":"1970-01-01T00:00:00.000Z"}',
      truncated: false,
    });
    expect(serializeToolResult(null)).toMatchObject({ text: 'null' });
  });

  it('refuses a function and never sends its source', () => {
    const secret = () => 'SECRET_SOURCE_CODE';
    const message = invalid(secret);
    expect(message).toBe('the tool returned a function at the top level, which is not JSON data; tools must return strings or JSON-serialisable values');
    expect(message).not.toContain('SECRET_SOURCE_CODE');
    expect(invalid({ items: [{ run: secret }] })).toContain('a function at items[0].run');
  });

  it('refuses symbols, BigInts, Maps, Sets and promises, naming where', () => {
    expect(invalid(Symbol('s'))).toContain('a symbol at the top level');
    expect(invalid({ total: 10n })).toContain('a BigInt at total');
    expect(invalid({ m: new Map([[1, 2]]) })).toContain('a Map at m');
    expect(invalid([new Set([1])])).toContain('a Set at [0]');
    const pending = Promise.resolve(1);
    expect(invalid({ p: pending })).toContain('a promise (was it awaited?) at p');
  });

  it('refuses a cycle, naming where it closes, without sending "[object Object]"', () => {
    const node: Record<string, unknown> = { name: 'a' };
    node.self = { parent: node };
    expect(invalid(node)).toContain('a circular reference at self.parent');
    // A shared (not circular) object is fine.
    const shared = { x: 1 };
    expect(serializeToolResult({ a: shared, b: shared })).toMatchObject({ ok: true, text: '{"a":{"x":1},"b":{"x":1}}' });
  });

  it('escapes keys with newlines in the path it reports', () => {
    expect(invalid({ 'a\nb': 1n })).toContain('a BigInt at a\\nb');
    expect(invalid({ 'a\nb': 1n })).not.toContain('\n');
  });

  it('reports a throwing getter or toJSON without the value', () => {
    const getter = Object.defineProperty({}, 'x', { enumerable: true, get: () => { throw new Error('boom'); } });
    expect(invalid(getter)).toBe('the tool returned a value that could not be read (a getter or toJSON threw)');
    expect(invalid({ toJSON: () => { throw new Error('boom'); } })).toContain('could not be read');
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error('trap'); } });
    expect(invalid(proxy)).toContain('could not be read');
  });

  it('cuts a result past the cap with the marker, at a character boundary', () => {
    const big = 'é'.repeat(AGENT_DEFAULTS.maxToolResultBytes);
    const result = serializeToolResult(big);
    expect(result).toMatchObject({ ok: true, truncated: true });
    const text = (result as { text: string }).text;
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(AGENT_DEFAULTS.maxToolResultBytes);
    expect(text.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(text).not.toContain('\uFFFD');
    const object = serializeToolResult({ rows: Array.from({ length: 100 }, (_, index) => ({ index })) }, 200);
    expect(object).toMatchObject({ ok: true, truncated: true });
    expect(new TextEncoder().encode((object as { text: string }).text).length).toBeLessThanOrEqual(200);
  });

  it('keeps a result exactly at the cap whole', () => {
    expect(serializeToolResult('x'.repeat(100), 100)).toEqual({ ok: true, text: 'x'.repeat(100), truncated: false });
  });
});
