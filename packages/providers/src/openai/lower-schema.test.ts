import { describe, expect, it } from 'vitest';
import { matchesSchema } from '../testing/constrained-decoder';
import { orderSchema, transferSchema } from '../testing/fixtures/schemas';
import { openAIStrictSchemaProblem } from '../testing/strict-schema-rules';
import { loweringReason } from '../testing/lowering-reason';
import { openAIDialect, lowerOpenAISchema } from './lower-schema';

type Json = Record<string, unknown>;

function objectsOf(schema: unknown): Json[] {
  const objects: Json[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      const node = value as Json;
      const type = node['type'];
      if (type === 'object' || (Array.isArray(type) && type.includes('object'))) objects.push(node);
      for (const [key, child] of Object.entries(node)) if (key !== 'enum' && key !== 'const' && key !== 'required') visit(child);
    }
  };
  visit(schema);
  return objects;
}

const reason = (schema: Json) => loweringReason(schema, openAIDialect);

describe('lowerOpenAISchema', () => {
  it('makes every property required, an optional one nullable, and closes every object', () => {
    const lowered = lowerOpenAISchema(orderSchema, 'output');
    const schema = lowered?.schema ?? {};
    expect(openAIStrictSchemaProblem(schema, "response_format 'order'")).toBeUndefined();
    for (const node of objectsOf(schema)) {
      expect(node['additionalProperties']).toBe(false);
      expect(node['required']).toEqual(Object.keys(node['properties'] as Json));
    }
    expect(schema).toMatchObject({
      properties: {
        placedAt: { type: ['string', 'null'], format: 'date-time' },
        customer: { properties: { website: { type: ['string', 'null'] }, vip: { type: ['boolean', 'null'] } } },
        // Bounds, item counts and patterns are enforced by OpenAI's decoder: they stay.
        lines: { minItems: 1, maxItems: 50 },
        payment: { anyOf: [{ properties: { last4: { pattern: '^[0-9]{4}$' } } }, { properties: { dueDays: { minimum: 0, maximum: 90 } } }] },
      },
      $defs: { line: { properties: { quantity: { minimum: 1, maximum: 1000 }, unitPrice: { exclusiveMinimum: 0, multipleOf: 0.01 }, gift: { type: ['boolean', 'null'] } } } },
    });
    expect(lowered?.changes).toEqual(expect.arrayContaining([
      'removed minLength at /properties/customer/properties/name',
      'removed format "uri" at /properties/customer/properties/website',
      'made optional property "website" required and nullable at /properties/customer (null means absent)',
      'made optional property "gift" required and nullable at /$defs/line (null means absent)',
      'removed uniqueItems at /properties/lines',
    ]));
  });

  it('makes an optional enum, const, $ref or union nullable the way strict mode reads it', () => {
    const lowered = lowerOpenAISchema({
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        kind: { const: 'v1' },
        home: { $ref: '#/$defs/address' },
        id: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
      $defs: { address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    }, 'tool');
    expect(lowered?.schema['properties']).toEqual({
      unit: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit', null] },
      kind: { anyOf: [{ const: 'v1', type: 'string' }, { type: 'null' }] },
      home: { anyOf: [{ $ref: '#/$defs/address' }, { type: 'null' }] },
      id: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
    });
    expect(lowered?.schema['required']).toEqual(['unit', 'kind', 'home', 'id']);
    expect(openAIStrictSchemaProblem(lowered?.schema, "function 'f'")).toBeUndefined();
    // The model's null for an absent property is valid against the lowered schema.
    expect(matchesSchema({ unit: null, kind: null, home: null, id: null }, lowered?.schema)).toBe(true);
  });

  it('lowers a tool input with an optional memo', () => {
    const lowered = lowerOpenAISchema(transferSchema, 'tool');
    expect(lowered?.schema).toEqual({
      type: 'object',
      properties: {
        account: { type: 'integer', minimum: 1 },
        amount: { type: 'number', minimum: 0.01, maximum: 10_000 },
        currency: { enum: ['EUR', 'USD'], type: 'string' },
        memo: { type: ['string', 'null'] },
      },
      required: ['account', 'amount', 'currency', 'memo'],
      additionalProperties: false,
    });
  });

  it('accepts a recursive schema (strict mode has recursion)', () => {
    const lowered = lowerOpenAISchema({ type: 'object', properties: { root: { $ref: '#/$defs/node' } }, required: ['root'], $defs: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name', 'children'] } } }, 'output');
    expect(lowered?.schema['$defs']).toEqual({
      node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name', 'children'], additionalProperties: false },
    });
  });

  it.each([
    ['a root that is a union', { anyOf: [{ type: 'object', properties: {} }, { type: 'null' }] }, /root is not an object/],
    ['a nullable root', { type: ['object', 'null'], properties: {} }, /root is not an object/],
    ['a map with free keys', { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['m'] }, /map with free keys/],
    ['an array without items', { type: 'object', properties: { a: { type: 'array' } } }, /no items schema/],
    ['an allOf that is not an intersection of objects', { type: 'object', properties: { a: { allOf: [{ type: 'string' }, { minLength: 2 }] } } }, /cannot be merged|not an intersection/],
    ['11 levels of nested objects', Array.from({ length: 11 }).reduce<Json>((inner) => ({ type: 'object', properties: { next: inner }, required: ['next'] }), { type: 'string' }), /nests objects 11 deep/],
    ['1001 enum values', { type: 'object', properties: { a: { type: 'integer', enum: Array.from({ length: 1001 }, (_, index) => index) } } }, /1001 enum values/],
  ])('cannot lower %s', (_name, schema, expected) => {
    expect(reason(schema)).toMatch(expected);
  });

  it('is pure and total on hostile input', () => {
    const input = structuredClone(transferSchema) as Json;
    const before = JSON.stringify(input);
    lowerOpenAISchema(input, 'tool');
    expect(JSON.stringify(input)).toBe(before);
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error('no keys'); } });
    expect(reason(proxy)).toMatch(/could not be read/);
  });
});

describe('lowerOpenAISchema on a TypeBox schema', () => {
  it('lowers optional fields, literal unions, nested objects and records the way strict mode takes them', async () => {
    const { Type } = await import('@sinclair/typebox');
    const Ticket = Type.Object({
      title: Type.String({ minLength: 3 }),
      priority: Type.Union([Type.Literal('low'), Type.Literal('high')]),
      assignee: Type.Optional(Type.Object({ id: Type.Integer({ minimum: 1 }), team: Type.Optional(Type.String()) })),
      tags: Type.Optional(Type.Array(Type.String(), { maxItems: 5 })),
    });
    const lowered = lowerOpenAISchema(Ticket as unknown as Json, 'output');
    expect(openAIStrictSchemaProblem(lowered?.schema, "response_format 'ticket'")).toBeUndefined();
    expect(lowered?.schema).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string' },
        priority: { anyOf: [{ const: 'low', type: 'string' }, { const: 'high', type: 'string' }] },
        assignee: {
          anyOf: [
            { type: 'object', properties: { id: { type: 'integer', minimum: 1 }, team: { type: ['string', 'null'] } }, required: ['id', 'team'], additionalProperties: false },
            { type: 'null' },
          ],
        },
        tags: { anyOf: [{ type: 'array', items: { type: 'string' }, maxItems: 5 }, { type: 'null' }] },
      },
      required: ['title', 'priority', 'assignee', 'tags'],
      additionalProperties: false,
    });
    // A record (free keys) cannot be lowered.
    expect(lowerOpenAISchema(Type.Object({ scores: Type.Record(Type.String(), Type.Number()) }) as unknown as Json, 'tool')).toBeUndefined();
  });
});
