import { describe, expect, it } from 'vitest';
import { matchesSchema } from '../testing/constrained-decoder';
import { orderSchema, transferSchema } from '../testing/fixtures/schemas';
import { anthropicStrictSchemaProblem } from '../testing/strict-schema-rules';
import { loweringReason } from '../testing/lowering-reason';
import { anthropicDialect, lowerAnthropicSchema } from './lower-schema';

type Json = Record<string, unknown>;

/** Every subschema of a lowered schema. */
function nodesOf(schema: unknown): Json[] {
  const nodes: Json[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      nodes.push(value as Json);
      for (const [key, child] of Object.entries(value)) if (key !== 'enum' && key !== 'const' && key !== 'required') visit(child);
    }
  };
  visit(schema);
  return nodes.filter((node) => 'type' in node || '$ref' in node || 'anyOf' in node);
}

const reason = (schema: Json) => loweringReason(schema, anthropicDialect);

describe('lowerAnthropicSchema', () => {
  it('lowers a nested schema with optional fields, a union, a $ref, bounds and formats to what the API accepts', () => {
    const lowered = lowerAnthropicSchema(orderSchema, 'output');
    expect(lowered).toBeDefined();
    const schema = lowered?.schema ?? {};
    // The rules the local Messages API server applies (the real API's) accept it.
    expect(anthropicStrictSchemaProblem(schema, 'output_config.format.schema')).toBeUndefined();
    for (const node of nodesOf(schema)) {
      if (node['type'] === 'object') expect(node['additionalProperties']).toBe(false);
      for (const keyword of ['minimum', 'maximum', 'exclusiveMinimum', 'multipleOf', 'minLength', 'maxLength', 'maxItems', 'uniqueItems', 'oneOf']) expect(node).not.toHaveProperty(keyword);
    }
    // Optional properties stay optional; the union is an anyOf; the $ref stays a $ref.
    expect(schema['required']).toEqual(['id', 'customer', 'lines', 'payment', 'status']);
    expect(schema).toMatchObject({
      properties: {
        lines: { type: 'array', items: { $ref: '#/$defs/line' }, minItems: 1 },
        payment: { anyOf: [{ properties: { kind: { const: 'card', type: 'string' }, last4: { pattern: '^[0-9]{4}$' } } }, { properties: { dueDays: { type: 'integer' } } }] },
        customer: { properties: { website: { type: 'string', format: 'uri' }, email: { format: 'email' } }, required: ['name', 'email'] },
        note: { type: ['string', 'null'] },
      },
      $defs: { line: { properties: { sku: { pattern: '^[A-Z]{3}-\\d+$' } }, additionalProperties: false } },
    });
    expect(lowered?.changes).toEqual(expect.arrayContaining([
      'removed minLength at /properties/customer/properties/name',
      'removed maxLength at /properties/customer/properties/name',
      'removed minimum at /$defs/line/properties/quantity',
      'removed multipleOf at /$defs/line/properties/unitPrice',
      'removed maxItems at /properties/lines',
      'removed uniqueItems at /properties/lines',
      'replaced oneOf with anyOf at /properties/payment (Keel checks that exactly one branch matches)',
      'closed the object at / (additionalProperties: false)',
    ]));
  });

  it('keeps what the decoder enforces: a value valid against the lowered schema for a valid order is valid against both', () => {
    const lowered = lowerAnthropicSchema(orderSchema, 'output');
    const order = {
      id: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
      customer: { name: 'Ada', email: 'ada@example.com' },
      lines: [{ sku: 'ABC-12', quantity: 2, unitPrice: 9.99 }],
      payment: { kind: 'card', last4: '4242' },
      status: 'open',
    };
    expect(matchesSchema(order, orderSchema)).toBe(true);
    expect(matchesSchema(order, lowered?.schema)).toBe(true);
    // A bound the decoder no longer enforces is Keel's to check: the lowered schema lets it through, the full one does not.
    const tooMany = { ...order, lines: [{ sku: 'ABC-12', quantity: 5000, unitPrice: 9.99 }] };
    expect([matchesSchema(tooMany, lowered?.schema), matchesSchema(tooMany, orderSchema)]).toEqual([true, false]);
  });

  it('lowers minItems above 1 to 1 and removes what the API refuses on tools', () => {
    const lowered = lowerAnthropicSchema({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, minItems: 3 } }, required: ['tags'] }, 'tool');
    expect(lowered?.schema).toMatchObject({ properties: { tags: { minItems: 1 } } });
    expect(lowered?.changes).toContain('lowered minItems 3 to 1 at /properties/tags');
    const transfer = lowerAnthropicSchema(transferSchema, 'tool');
    expect(anthropicStrictSchemaProblem(transfer?.schema, 'tools.0.custom')).toBeUndefined();
    expect(transfer?.schema).toEqual({
      type: 'object',
      properties: { account: { type: 'integer' }, amount: { type: 'number' }, currency: { enum: ['EUR', 'USD'], type: 'string' }, memo: { type: 'string' } },
      required: ['account', 'amount', 'currency'],
      additionalProperties: false,
    });
  });
});

describe('lowerAnthropicSchema', () => {
  it('maps definitions to $defs, inlines a root $ref, merges allOf of objects and gives an untyped enum its type', () => {
    const lowered = lowerAnthropicSchema({
      $ref: '#/definitions/Root',
      definitions: {
        Root: { allOf: [{ type: 'object', properties: { a: { $ref: '#/definitions/Color' } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'integer', nullable: true } } }] },
        Color: { enum: ['red', 'green'] },
        Unused: { type: 'string' },
      },
    }, 'output');
    expect(lowered?.schema).toEqual({
      type: 'object',
      properties: { a: { $ref: '#/$defs/Color' }, b: { type: ['integer', 'null'] } },
      required: ['a'],
      additionalProperties: false,
      $defs: { Color: { enum: ['red', 'green'], type: 'string' } },
    });
    expect(lowered?.changes).toEqual(expect.arrayContaining(['inlined the root $ref "#/definitions/Root"', 'merged allOf into one object at /', 'moved definitions to $defs', 'left out unused definitions "Unused"']));
  });

  it.each([
    ['a recursive schema', { type: 'object', properties: { tree: { $ref: '#/$defs/node' } }, $defs: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } } } }, /recursive/],
    ['a root that is not an object', { type: 'array', items: { type: 'string' } }, /root is not an object/],
    ['a map with free keys', { type: 'object', properties: { scores: { type: 'object', additionalProperties: { type: 'number' } } } }, /map with free keys/],
    ['a tuple', { type: 'object', properties: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] , items: false } } }, /tuple|any value or none/],
    ['a value of any type', { type: 'object', properties: { payload: {} } }, /allows any value/],
    ['a non-local $ref', { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }, /not a local definition/],
    ['an enum of objects', { type: 'object', properties: { a: { enum: [{ x: 1 }] } } }, /enum/],
    ['25 optional properties', { type: 'object', properties: Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`p${index}`, { type: 'string' }])) }, /25 optional properties/],
    ['17 unions', { type: 'object', properties: Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`p${index}`, { type: ['string', 'null'] }])), required: Array.from({ length: 17 }, (_, index) => `p${index}`) }, /17 unions/],
  ])('cannot lower %s', (_name, schema, expected) => {
    expect(reason(schema as Json)).toMatch(expected);
    expect(lowerAnthropicSchema(schema as Json, 'output')).toBeUndefined();
  });

  it('is pure: it does not change its input, and a hostile input gives undefined rather than throwing or hanging', () => {
    const input = structuredClone(orderSchema) as Json;
    const before = JSON.stringify(input);
    lowerAnthropicSchema(input, 'output');
    expect(JSON.stringify(input)).toBe(before);
    const selfContaining: Json = { type: 'object', properties: {} };
    (selfContaining['properties'] as Json)['self'] = selfContaining;
    expect(reason(selfContaining)).toMatch(/contains itself/);
    const throwing = { type: 'object', get properties(): never { throw new Error('boom'); } };
    expect(reason(throwing)).toMatch(/could not be read: boom/);
    expect(lowerAnthropicSchema(null as never, 'output')).toBeUndefined();
    // A schema nested far deeper than any decoder takes is refused without exhausting the stack.
    const deep = Array.from({ length: 5000 }).reduce<Json>((inner) => ({ type: 'array', items: inner }), { type: 'string' });
    expect(reason({ type: 'object', properties: { deep } })).toMatch(/nests too deeply/);
  });

  it('keeps a property named __proto__ as a property', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}') as Json;
    const lowered = lowerAnthropicSchema(schema, 'tool');
    expect(Object.keys((lowered?.schema['properties'] ?? {}) as Json)).toEqual(['__proto__']);
    expect(JSON.stringify(lowered?.schema)).toContain('"__proto__":{"type":"string"}');
  });
});
