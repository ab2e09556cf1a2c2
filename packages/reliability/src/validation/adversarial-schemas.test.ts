import { describe, expect, it } from 'vitest';
import { InvalidSchemaError } from '../errors/invalid-schema-error';
import { ajvValidator } from './ajv-validator';
import { interpretiveValidator } from './interpretive-validator';
import type { SchemaValidationResult } from './schema-validator';

const validators = { ajv: ajvValidator, interpreter: interpretiveValidator } as const;
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

function cyclic(): object {
  const node: Record<string, unknown> = { type: 'object' };
  node.properties = { self: node };
  return node;
}

/** The build error of a schema on a validator, or 'built'. */
function buildOutcome(make: (schema: object) => unknown, schema: object): string {
  try {
    make(schema);
    return 'built';
  } catch (error) {
    expect(InvalidSchemaError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
}

function result(make: (schema: object) => { validate(value: unknown): unknown }, schema: object, value: unknown): SchemaValidationResult<unknown> {
  return make(schema).validate(value) as SchemaValidationResult<unknown>;
}

describe('both validators refuse the same schemas at build, with the same message', () => {
  const refused: readonly [string, object, RegExp][] = [
    ['a $ref that names nothing', { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } }, /\$ref "#\/definitions\/missing" at "#\/properties\/a" names nothing/],
    ['a $ref to another document', { $ref: 'https://example.com/other.json' }, /names nothing in this schema \(other documents are never fetched\)/],
    ['enum: []', { type: 'string', enum: [] }, /"enum" at "#" allows no value/],
    ['nullable without type', { nullable: true }, /"nullable" cannot be used without "type"/],
    ['null type with nullable: false', { type: 'null', nullable: false }, /contradicts "nullable": false/],
    ['a negative minLength', { type: 'string', minLength: -1 }, /"minLength" at "#" must be a non-negative integer/],
    ['required as a string', { type: 'object', required: 'a' }, /"required" at "#" must be an array of distinct strings/],
    ['a pattern that is no regular expression', { type: 'string', pattern: '(' }, /"pattern" at "#" must be a valid regular expression/],
    ['multipleOf 0', { type: 'number', multipleOf: 0 }, /"multipleOf" at "#" must be a number greater than 0/],
    ['a non-string $ref', { $ref: 5 }, /"\$ref" at "#" must be a URI reference/],
    ['an unknown keyword', { type: 'string', maxLenght: 3 }, /unknown keyword: "maxLenght"/],
    ['an unknown format', { type: 'string', format: 'phone' }, /unknown format "phone"/],
    ['a format name inherited from Object.prototype', { type: 'string', format: 'toString' }, /unknown format "toString"/],
    ['a 2020-12 keyword in draft-07', { type: 'array', prefixItems: [] }, /unknown keyword: "prefixItems"/],
    ['a draft-07 keyword in 2020-12', { $schema: DRAFT_2020, type: 'array', additionalItems: false }, /unknown keyword: "additionalItems"/],
    ['$dynamicRef', { $schema: DRAFT_2020, $dynamicAnchor: 'node', items: { $dynamicRef: '#node' } }, /"\$dynamicRef" and "\$dynamicAnchor" are not supported/],
    ['another dialect', { $schema: 'https://json-schema.org/draft/2019-09/schema' }, /unsupported dialect/],
    ['a $ref to itself', { $ref: '#' }, /refers back to itself/],
    ['two definitions that refer to each other through a union', { definitions: { a: { anyOf: [{ $ref: '#/definitions/b' }] }, b: { allOf: [{ $ref: '#/definitions/a' }] } }, $ref: '#/definitions/a' }, /refers back to itself/],
    ['an $id that is no URI reference', { $id: 'not a uri ::', type: 'string' }, /"\$id" at "#" must be a URI reference/],
    ['a $ref to a properties map, not a schema', { properties: { a: { type: 'string' } }, $ref: '#/properties' }, /\$ref "#\/properties" at "#" names nothing/],
    ['a $ref into an enum value', { enum: [{ type: 'string' }], $ref: '#/enum/0' }, /\$ref "#\/enum\/0" at "#" names nothing/],
    ['a schema object with a cycle', cyclic(), /it is not JSON data/],
    ['a BigInt in a schema', { type: 'integer', maximum: BigInt(10) }, /it is not JSON data/],
    ['a schema nested 300 levels deep', Array.from({ length: 300 }).reduce<object>((inner) => ({ items: inner }), { type: 'string' }), /nested deeper than 200 levels/],
    ['a chain of 3,000 references', { definitions: Object.fromEntries(Array.from({ length: 3000 }, (_, index) => [`d${index}`, index === 2999 ? { type: 'string' } : { $ref: `#/definitions/d${index + 1}` }])), $ref: '#/definitions/d0' }, /more than 200 subschemas/],
  ];
  for (const [name, schema, message] of refused) {
    it(name, () => {
      const outcomes = Object.values(validators).map((make) => buildOutcome(make, schema));
      expect(outcomes[0]).toMatch(message);
      expect(outcomes[1]).toBe(outcomes[0]);
    });
  }

  it('accepts `if` without `then` or `else` on both: it changes nothing', () => {
    for (const make of Object.values(validators)) {
      expect(result(make, { if: { type: 'string' } }, 1).ok).toBe(true);
      expect(result(make, { if: { type: 'string' } }, 'a').ok).toBe(true);
    }
  });

  it('reads OpenAPI `nullable: true` beside `type` as allowing null, on both', () => {
    for (const make of Object.values(validators)) {
      expect(result(make, { type: 'string', nullable: true }, null).ok).toBe(true);
      expect(result(make, { type: 'string', nullable: true }, 1).ok).toBe(false);
      expect(result(make, { type: 'string' }, null).ok).toBe(false);
    }
  });
});

for (const [name, make] of Object.entries(validators)) {
  describe(`${name}: hostile values`, () => {
    it('refuses non-finite numbers, which JSON cannot hold (1e400 parses to Infinity)', () => {
      for (const value of [JSON.parse('1e400') as number, -Infinity, Number.NaN]) {
        expect(result(make, { type: 'number' }, value).ok).toBe(false);
        expect(result(make, { type: 'integer' }, value).ok).toBe(false);
        expect(result(make, { type: 'object', properties: { n: { type: 'number' } } }, { n: value })).toMatchObject({ ok: false, issues: [{ path: ['n'], kind: 'type' }] });
      }
      expect(result(make, { type: 'integer' }, 1e308).ok).toBe(true);
    });

    it('checks multipleOf on decimals, as the JSON text wrote them', () => {
      expect(result(make, { type: 'number', multipleOf: 0.1 }, 0.3).ok).toBe(true);
      expect(result(make, { type: 'number', multipleOf: 0.01 }, 19.99).ok).toBe(true);
      expect(result(make, { type: 'number', multipleOf: 1 }, 1.0000000001).ok).toBe(false);
      expect(result(make, { type: 'integer', multipleOf: 0.123456789 }, 1e308).ok).toBe(false);
      expect(result(make, { type: 'number', multipleOf: 0.1 }, 0.35)).toMatchObject({ ok: false, issues: [{ message: 'must be multiple of 0.1' }] });
    });

    it('refuses a value nested deeper than 256 levels with an issue, never a stack overflow', () => {
      const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown;
      for (const schema of [{ type: 'array', items: { $ref: '#' } }, {}, { type: 'array' }]) {
        expect(result(make, schema, deep)).toMatchObject({ ok: false, issues: [{ kind: 'other', message: 'must NOT be nested deeper than 256 levels' }] });
      }
      const fine = JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`) as unknown;
      expect(result(make, { type: 'array', items: { $ref: '#' } }, fine).ok).toBe(true);
    });

    it('counts own properties only, whatever their names', () => {
      const parse = (text: string): unknown => JSON.parse(text);
      expect(result(make, { type: 'object', dependencies: { toString: ['a'] } }, {}).ok).toBe(true);
      expect(result(make, { type: 'object', dependencies: { toString: ['a'] } }, parse('{"toString": 1}')).ok).toBe(false);
      expect(result(make, { type: 'object', additionalProperties: false, properties: { a: {} } }, parse('{"constructor": 1}'))).toMatchObject({ ok: false, issues: [{ kind: 'extra', path: ['constructor'] }] });
      expect(result(make, { type: 'object', propertyNames: { maxLength: 3 } }, parse('{"__proto__": 1}')).ok).toBe(false);
      expect(result(make, { type: 'object', minProperties: 1 }, {}).ok).toBe(false);
      expect(result(make, { type: 'object', maxProperties: 0 }, parse('{"__proto__": {}}')).ok).toBe(false);
    });

    it('measures lengths in code points and matches patterns in Unicode mode', () => {
      expect(result(make, { type: 'string', maxLength: 1 }, '👍🏽').ok).toBe(false);
      expect(result(make, { type: 'string', maxLength: 2 }, '👍🏽').ok).toBe(true);
      expect(result(make, { type: 'string', pattern: '^\\p{L}+$' }, 'Überprüfung').ok).toBe(true);
      expect(result(make, { type: 'string', pattern: '^.$' }, '💩').ok).toBe(true);
    });

    it('does not resolve references through prototype names', () => {
      expect(buildOutcome(make, { $ref: '#/definitions/constructor' })).toMatch(/names nothing/);
      expect(buildOutcome(make, { definitions: {}, $ref: '#/definitions/__proto__' })).toMatch(/names nothing/);
    });
  });
}
