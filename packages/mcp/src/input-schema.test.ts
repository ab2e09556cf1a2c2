import { describe, expect, it } from 'vitest';
import { toValidator } from '@keel/reliability';
import { prepareInputSchema } from './input-schema';

describe('prepareInputSchema', () => {
  it('keeps the dialect for validation, leaves $schema out of what the model reads, types an untyped root as an object, and copies', () => {
    const given = { $schema: 'http://json-schema.org/draft-07/schema#', properties: { q: { type: 'string' } } };
    const prepared = prepareInputSchema(given);
    const shown = { type: 'object', properties: { q: { type: 'string' } } };
    expect(prepared).toEqual({ ok: true, schema: { $schema: 'http://json-schema.org/draft-07/schema#', ...shown }, shown, checks: [] });
    expect(given).toHaveProperty('$schema');
  });

  it('reads a schema without $schema as JSON Schema 2020-12, MCP\'s default dialect', () => {
    const pair = { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } }, $defs: { unused: { type: 'null' } } };
    const prepared = prepareInputSchema(pair);
    if (!prepared.ok) throw new Error(prepared.message);
    expect(prepared.schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const validator = toValidator(prepared.schema as Parameters<typeof toValidator>[0]);
    expect(validator.validate({ pair: ['a', 1] })).toMatchObject({ ok: true });
    // prefixItems holds: read as draft-07 it would be an unknown keyword, and a third item would pass.
    expect(validator.validate({ pair: ['a', 'b'] })).toMatchObject({ ok: false });
    expect(validator.validate({ pair: ['a', 1, true] })).toMatchObject({ ok: false });
  });

  it('honours a declared draft-07, where an array of items is a tuple, and refuses a dialect Keel does not read', () => {
    const tuple = (dialect?: string) => ({ ...(dialect === undefined ? {} : { $schema: dialect }), type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } } });
    const draft7 = prepareInputSchema(tuple('http://json-schema.org/draft-07/schema#'));
    if (!draft7.ok) throw new Error(draft7.message);
    const validator = toValidator(draft7.schema as Parameters<typeof toValidator>[0]);
    expect(validator.validate({ pair: ['a', 1] })).toMatchObject({ ok: true });
    expect(validator.validate({ pair: [1, 'a'] })).toMatchObject({ ok: false });
    // The same tuple without $schema is 2020-12, where `items` must be a schema: refused, never misread.
    const undeclared = prepareInputSchema(tuple());
    if (!undeclared.ok) throw new Error(undeclared.message);
    expect(() => toValidator(undeclared.schema as Parameters<typeof toValidator>[0])).toThrow();
    const draft4 = prepareInputSchema(tuple('http://json-schema.org/draft-04/schema#'));
    if (!draft4.ok) throw new Error(draft4.message);
    expect(() => toValidator(draft4.schema as Parameters<typeof toValidator>[0])).toThrow(/unsupported dialect/);
  });

  it('refuses what is not an object schema, or not JSON data', () => {
    expect(prepareInputSchema(null)).toMatchObject({ ok: false });
    expect(prepareInputSchema([])).toMatchObject({ ok: false });
    expect(prepareInputSchema({ type: 'string' })).toMatchObject({ ok: false, message: expect.stringContaining('"string"') });
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(prepareInputSchema(cyclic)).toMatchObject({ ok: false, message: expect.stringContaining('not JSON data') });
  });
});
