import { describe, expect, it } from 'vitest';
import { InvalidSchemaError } from '../errors/invalid-schema-error';
import { ajvValidator } from './ajv-validator';
import { interpretiveValidator } from './interpretive-validator';
import type { SchemaValidationResult, SchemaValidator } from './schema-validator';

const validators = { ajv: ajvValidator, interpreter: interpretiveValidator } as const;
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

const ok = (validator: SchemaValidator<unknown>, value: unknown): boolean => (validator.validate(value) as SchemaValidationResult<unknown>).ok;
const parse = (text: string): unknown => JSON.parse(text);

for (const [name, make] of Object.entries(validators)) {
  describe(`${name}: dialects, own properties, $ref siblings`, () => {
    it('reads a schema that declares 2020-12 with 2020-12 rules', () => {
      const tuple = make({ $schema: DRAFT_2020, type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false });
      expect(ok(tuple, ['a', 1])).toBe(true);
      expect(ok(tuple, ['a', 'b'])).toBe(false);
      expect(ok(tuple, ['a', 1, 2])).toBe(false);
      const defs = make({ $schema: `${DRAFT_2020}#`, $defs: { code: { type: 'string', maxLength: 3 } }, $ref: '#/$defs/code' });
      expect(ok(defs, 'abc')).toBe(true);
      expect(ok(defs, 'abcd')).toBe(false);
    });

    it('reads a schema without $schema as draft-07 (array items are a tuple)', () => {
      const tuple = make({ type: 'array', items: [{ type: 'string' }], additionalItems: false });
      expect(ok(tuple, ['a'])).toBe(true);
      expect(ok(tuple, ['a', 'b'])).toBe(false);
      expect(() => make({ type: 'array', prefixItems: [{ type: 'string' }] })).toThrow(/unknown keyword: "prefixItems"/);
    });

    it('refuses another dialect by name', () => {
      expect(() => make({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' })).toThrow(InvalidSchemaError);
      expect(() => make({ $schema: 'http://json-schema.org/draft-04/schema#' })).toThrow(/unsupported dialect/);
    });

    it('counts own properties only: required names of Object.prototype are not met by {}', () => {
      for (const key of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
        const validator = make({ type: 'object', required: [key] });
        expect(ok(validator, {})).toBe(false);
        expect(ok(validator, parse(`{"${key}": 1}`))).toBe(true);
      }
    });

    it('accepts valid arguments for a tool with optional properties named like Object.prototype members', () => {
      const tool = make(parse('{"type": "object", "properties": {"constructor": {"type": "string"}, "toString": {"type": "number"}, "__proto__": {"type": "boolean"}}, "additionalProperties": false}') as object);
      expect(ok(tool, {})).toBe(true);
      expect(ok(tool, { constructor: 'Point' })).toBe(true);
      expect(ok(tool, parse('{"constructor": "Point", "toString": 1, "__proto__": true}'))).toBe(true);
      expect(ok(tool, { constructor: 1 })).toBe(false);
      expect(ok(tool, parse('{"__proto__": "not a boolean"}'))).toBe(false);
    });

    it('honours constraints beside a $ref (draft-07 and 2020-12)', () => {
      for (const dialect of [{}, { $schema: DRAFT_2020 }]) {
        const code = make({ ...dialect, definitions: { s: { type: 'string' } }, type: 'object', properties: { code: { $ref: '#/definitions/s', maxLength: 3 } } });
        expect(ok(code, { code: 'ABC' })).toBe(true);
        expect(ok(code, { code: 'TOO-LONG-CODE' })).toBe(false);
      }
    });

    it('measures string lengths in code points', () => {
      const short = make({ type: 'string', maxLength: 2, minLength: 2 });
      expect(ok(short, '💩💩')).toBe(true);
      expect(ok(short, '💩')).toBe(false);
    });

    it('checks formats to their RFCs', () => {
      expect(ok(make({ type: 'string', format: 'hostname' }), 'xn--X')).toBe(false);
      expect(ok(make({ type: 'string', format: 'uri' }), 'http://example.com:abc/path')).toBe(false);
      expect(ok(make({ type: 'string', format: 'date-time' }), '1985-04-12T23:20:50+01')).toBe(false);
      expect(ok(make({ $schema: DRAFT_2020, type: 'string', format: 'date-time' }), '1985-04-12T23:20:50+01:00')).toBe(true);
    });
  });
}
