import { describe, expect, it } from 'vitest';
import { canonicalRequest, canonicalText, normaliseText, toSortedJson } from './canonical-request';

describe('canonicalRequest', () => {
  it('sorts keys at every level and drops what JSON has no form for', () => {
    const request = { model: 'm', messages: [{ role: 'user', content: 'hi', ephemeral: undefined }], temperature: Number.NaN, extra: () => 1 };
    expect(JSON.stringify(canonicalRequest(request))).toBe('{"messages":[{"content":"hi","role":"user"}],"model":"m","temperature":null}');
    expect(canonicalText({ b: 1, a: [{ d: 1, c: 2 }] })).toBe(canonicalText({ a: [{ c: 2, d: 1 }], b: 1 }));
  });

  it('numbers tool-call ids by first appearance, in calls and results alike', () => {
    const request = {
      model: 'm',
      messages: [
        { role: 'assistant', content: [{ type: 'tool-call', id: 'toolu_B', name: 'a', arguments: {} }, { type: 'tool-call', id: 'toolu_A', name: 'b', arguments: { id: 'kept' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_A', toolName: 'b', output: 'x', isError: false }] },
      ],
    };
    const text = JSON.stringify(canonicalRequest(request));
    expect(text).toContain('"id":"<call-1>"');
    expect(text).toContain('"id":"<call-2>"');
    expect(text).toContain('"toolCallId":"<call-2>"');
    expect(text).toContain('"arguments":{"id":"kept"}');
  });

  it('normalises UUIDs and timestamps inside text, not dates alone', () => {
    expect(normaliseText('run 3f2b8c1e-9d4a-4b7e-8f00-1234567890ab at 2026-11-25T17:14:13.512Z, due 2026-12-01')).toBe('run <uuid> at <timestamp>, due 2026-12-01');
    expect(normaliseText('at 2026-11-25 17:14 +01:00')).toBe('at <timestamp>');
  });

  it('normalises UUIDs and timestamps only inside tool results, the values the run made', () => {
    const id = '3f2b8c1e-9d4a-4b7e-8f00-1234567890ab';
    const request = {
      model: 'm',
      system: `Order ${id}`,
      messages: [
        { role: 'user', content: `Where is ${id}, placed 2026-11-25T17:14:13Z?` },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'track', arguments: { id } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'track', output: `parcel ${id} scanned 2026-11-26T08:00:00Z`, isError: false }] },
      ],
    };
    const text = JSON.stringify(canonicalRequest(request));
    expect(text.split(id)).toHaveLength(4);
    expect(text).toContain('placed 2026-11-25T17:14:13Z');
    expect(text).toContain('parcel <uuid> scanned <timestamp>');
    expect(JSON.stringify(canonicalRequest(request, [/placed \S+\?/]))).toContain('Where is 3f2b8c1e-9d4a-4b7e-8f00-1234567890ab, <volatile>');
  });

  it('refuses a cycle, a bigint and a request that is not an object', () => {
    const looped: Record<string, unknown> = { model: 'm' };
    looped['self'] = looped;
    expect(() => canonicalRequest(looped)).toThrow('cycle');
    expect(() => toSortedJson({ n: 10n })).toThrow('bigint');
    expect(() => canonicalRequest(['m'])).toThrow('must be an object');
  });
});
