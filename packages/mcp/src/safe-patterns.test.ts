import { describe, expect, it } from 'vitest';
import { prepareInputSchema } from './input-schema';
import { patternIssues } from './safe-patterns';

describe('risky patterns in a server schema', () => {
  it('takes a pattern with nested repetition out of the validated schema and checks it on a linear-time engine', () => {
    const prepared = prepareInputSchema({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' }, tags: { type: 'array', items: { type: 'string', pattern: '^(x|xx)+$' } } } });
    if (!prepared.ok) throw new Error(prepared.message);
    expect(prepared.schema).toEqual({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { code: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } });
    // The model is shown the server's schema, patterns included.
    expect(prepared.shown).toMatchObject({ properties: { code: { pattern: '^(a+)+$' } } });
    // 40 characters: a backtracking engine would not finish this in any reasonable time.
    const hostile = `${'a'.repeat(40)}!`;
    expect(patternIssues(prepared.checks, { code: hostile, tags: ['xxx', 'y'] })).toEqual([
      { path: ['code'], pathText: 'code', kind: 'pattern', message: 'must match pattern "^(a+)+$"', expected: '^(a+)+$', received: hostile },
      { path: ['tags', 1], pathText: 'tags[1]', kind: 'pattern', message: 'must match pattern "^(x|xx)+$"', expected: '^(x|xx)+$', received: 'y' },
    ]);
    expect(patternIssues(prepared.checks, { code: 'aaaa', tags: ['xxx'] })).toEqual([]);
  });

  it('leaves a pattern it cannot move to the validator when safe-regex2 finds it safe', () => {
    const schema = { type: 'object', properties: { zip: { anyOf: [{ type: 'string', pattern: '^\\d{5}$' }, { type: 'integer' }] } } };
    expect(prepareInputSchema(schema)).toMatchObject({ ok: true, schema, checks: [] });
  });

  it('keeps JavaScript meaning on RE2: \\s, \\S and . as JavaScript reads them', () => {
    const prepared = prepareInputSchema({ type: 'object', properties: { a: { type: 'string', pattern: '^\\S+\\s\\S+$' }, b: { type: 'string', pattern: '^a.b$' } } });
    if (!prepared.ok) throw new Error(prepared.message);
    expect(prepared.checks).toHaveLength(2);
    expect(patternIssues(prepared.checks, { a: 'one\u00a0two', b: 'a-b' })).toEqual([]);
    expect(patternIssues(prepared.checks, { a: 'one\u2003two\u2003three', b: 'a\rb' }).map((issue) => issue.pathText)).toEqual(['a', 'b']);
  });

  it('refuses a risky pattern it cannot check apart (inside anyOf, a definition) or that needs a backtracking engine', () => {
    const inUnion = prepareInputSchema({ type: 'object', properties: { q: { anyOf: [{ type: 'string', pattern: '^(a+)+$' }, { type: 'number' }] } } });
    expect(inUnion).toMatchObject({ ok: false, message: expect.stringContaining('sits where Keel cannot check it apart') });
    const lookahead = prepareInputSchema({ type: 'object', properties: { q: { type: 'string', pattern: '^(?=a)(a+)+$' } } });
    expect(lookahead).toMatchObject({ ok: false, message: expect.stringContaining('features a linear-time engine does not have') });
    const names = prepareInputSchema({ type: 'object', patternProperties: { '^(a+)+$': { type: 'string' } } });
    expect(names).toMatchObject({ ok: false, message: expect.stringContaining('property name pattern') });
  });

  it('tells a property named "pattern" from the keyword', () => {
    const schema = { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] };
    expect(prepareInputSchema(schema)).toMatchObject({ ok: true, schema, checks: [] });
  });
});
