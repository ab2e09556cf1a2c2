import { describe, expect, it } from 'vitest';
import { prepareInputSchema } from './input-schema';

describe('prepareInputSchema', () => {
  it('drops the root $schema, types an untyped root as an object, and copies', () => {
    const given = { $schema: 'https://json-schema.org/draft/2020-12/schema', properties: { q: { type: 'string' } } };
    const prepared = prepareInputSchema(given);
    const expected = { type: 'object', properties: { q: { type: 'string' } } };
    expect(prepared).toEqual({ ok: true, schema: expected, shown: expected, checks: [] });
    expect(given).toHaveProperty('$schema');
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
