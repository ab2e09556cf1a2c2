import { failureSignature } from '../gate/failure-signature';
import { type TSchema, Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { InvalidSchemaError } from '../errors/invalid-schema-error';
import { formatFeedback } from '../feedback/format-feedback';
import { ajvValidator } from './ajv-validator';
import { interpretiveValidator } from './interpretive-validator';
import type { SchemaValidationResult } from './schema-validator';

const Point = Type.Object({ x: Type.Number(), y: Type.Number() }, { additionalProperties: false });

/** Schemas as users write them with TypeBox, each with one valid value the inputs are mutated from. */
const corpus: readonly { readonly name: string; readonly schema: TSchema; readonly valid: unknown }[] = [
  {
    name: 'task',
    schema: Type.Object(
      {
        title: Type.String({ minLength: 2, maxLength: 40 }),
        amount: Type.Number({ minimum: 0, maximum: 1000 }),
        level: Type.Union([Type.Literal('low'), Type.Literal('high')]),
        due: Type.String({ format: 'date-time' }),
        tags: Type.Array(Type.String(), { maxItems: 3 }),
      },
      { additionalProperties: false },
    ),
    valid: { title: 'Pay rent', amount: 50, level: 'low', due: '2026-05-03T00:00:00Z', tags: ['home'] },
  },
  {
    name: 'contact',
    schema: Type.Object({
      email: Type.String({ format: 'email' }),
      id: Type.String({ format: 'uuid' }),
      site: Type.Optional(Type.String({ format: 'uri' })),
      code: Type.String({ pattern: '^[A-Z]{3}$' }),
      age: Type.Integer({ exclusiveMinimum: 0, exclusiveMaximum: 150 }),
      day: Type.String({ format: 'date' }),
    }),
    valid: { email: 'a@example.com', id: '123e4567-e89b-12d3-a456-426614174000', site: 'https://example.com', code: 'ABC', age: 30, day: '2026-05-03' },
  },
  {
    name: 'nested',
    schema: Type.Object(
      {
        origin: Point,
        path: Type.Array(Point, { minItems: 1 }),
        meta: Type.Object({ label: Type.Union([Type.String(), Type.Null()]), weight: Type.Optional(Type.Number({ multipleOf: 0.5 })) }),
      },
      { additionalProperties: false },
    ),
    valid: { origin: { x: 0, y: 0 }, path: [{ x: 1, y: 2 }], meta: { label: null, weight: 1.5 } },
  },
  {
    name: 'union of objects',
    schema: Type.Object({
      shape: Type.Union([
        Type.Object({ kind: Type.Literal('circle'), radius: Type.Number() }),
        Type.Object({ kind: Type.Literal('square'), side: Type.Number() }),
      ]),
      status: Type.Union([Type.Literal('open'), Type.Literal('closed'), Type.Literal('pending')]),
      priority: Type.Enum({ low: 1, high: 2 }),
    }),
    valid: { shape: { kind: 'circle', radius: 2 }, status: 'open', priority: 1 },
  },
  {
    name: 'records and tuples',
    schema: Type.Object({
      scores: Type.Record(Type.String(), Type.Integer()),
      pair: Type.Tuple([Type.String(), Type.Number()]),
      flags: Type.Array(Type.Boolean(), { minItems: 1, maxItems: 2 }),
    }),
    valid: { scores: { ann: 3 }, pair: ['a', 1], flags: [true] },
  },
  {
    name: 'open object with additional schema',
    schema: Type.Object({ name: Type.String(), size: Type.Object({ width: Type.Number() }) }, { additionalProperties: Type.Number() }),
    valid: { name: 'box', size: { width: 2 }, extra: 1 },
  },
  {
    name: 'local $ref',
    schema: {
      type: 'object',
      definitions: { point: { type: 'object', properties: { x: { type: 'number', minimum: 0 } }, required: ['x'], additionalProperties: false } },
      properties: { from: { $ref: '#/definitions/point' }, to: { $ref: '#/definitions/point' } },
      required: ['from'],
    } as unknown as TSchema,
    valid: { from: { x: 1 }, to: { x: 2 } },
  },
  { name: 'top-level array', schema: Type.Array(Type.Object({ id: Type.Integer() }), { maxItems: 2 }), valid: [{ id: 1 }] },
  { name: 'top-level string', schema: Type.String({ minLength: 3, format: 'email' }), valid: 'a@example.com' },
];

const replacements: readonly unknown[] = [null, 'text', '', -1, 1.25, 0, 10_000, true, [], {}, ['x', 'y', 'z', 'w'], 'not-a-date', 'abc', 'ZZZ', 'circle'];

/** The valid value with each leaf replaced, each property removed, and unknown properties added. */
function mutations(value: unknown): unknown[] {
  const results: unknown[] = [...replacements];
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      for (const mutated of mutations(item)) results.push(value.map((original, position) => (position === index ? mutated : original)));
    });
    results.push([...value, ...value, ...value]);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const { [key]: _removed, ...rest } = record;
      results.push(rest);
      for (const mutated of mutations(record[key])) results.push({ ...record, [key]: mutated });
    }
    results.push({ ...record, surplus: 1 }, { ...rest(record), surplus: 'x', other: [] });
  }
  return results;
}

function rest(record: Record<string, unknown>): Record<string, unknown> {
  const [first] = Object.keys(record);
  if (first === undefined) return record;
  const { [first]: _removed, ...others } = record;
  return others;
}

function feedbackOf(result: SchemaValidationResult<unknown>): string | undefined {
  return result.ok ? undefined : formatFeedback({ stage: 'schema-validate', issues: result.issues });
}

function withoutBranches(result: SchemaValidationResult<unknown>): SchemaValidationResult<unknown> {
  return result.ok ? result : { ok: false, issues: result.issues.map(({ branches: _branches, ...issue }) => issue) };
}

describe('interpretiveValidator (no code generation)', () => {
  for (const { name, schema, valid } of corpus) {
    it(`reports the same issues and feedback as ajv: ${name}`, () => {
      const compiled = ajvValidator(schema);
      const interpreted = interpretiveValidator(schema);
      const inputs = [valid, ...mutations(valid)];
      let failures = 0;
      for (const input of inputs) {
        const expected = compiled.validate(input) as SchemaValidationResult<unknown>;
        const actual = interpreted.validate(input) as SchemaValidationResult<unknown>;
        // Union branch issues are compared by what stuck detection reads of them: their signature.
        expect({ input, result: withoutBranches(actual) }).toEqual({ input, result: withoutBranches(expected) });
        if (!actual.ok && !expected.ok) expect(failureSignature({ stage: 'schema-validate', message: '', issues: actual.issues })).toBe(failureSignature({ stage: 'schema-validate', message: '', issues: expected.issues }));
        expect(feedbackOf(actual)).toBe(feedbackOf(expected));
        if (!expected.ok) failures++;
      }
      // The corpus exercises failures, not only valid values.
      expect(failures).toBeGreaterThan(inputs.length / 2);
    });
  }

  it('refuses the schemas ajv refuses, with the same hint', () => {
    const refused: readonly object[] = [
      { type: 'object', properties: { a: { type: 'string', foo: 1 } } },
      { type: 'string', format: 'nope' },
      { name: { type: 'string' } },
      { type: 'strin' },
      { anyOf: [{ type: 'string' }, { minimum: 1, bogus: true }] },
    ];
    for (const schema of refused) {
      expect(() => ajvValidator(schema)).toThrow(InvalidSchemaError);
      expect(() => interpretiveValidator(schema)).toThrow(InvalidSchemaError);
    }
    expect(() => interpretiveValidator({ name: { type: 'string' } })).toThrow(/unknown keyword: "name".*z\.object/);
    for (const { schema } of corpus) expect(() => interpretiveValidator(schema)).not.toThrow();
  });

  it('accepts a valid value and returns it unchanged', () => {
    const value = { x: 1, y: 2 };
    expect(interpretiveValidator(Point).validate(value)).toEqual({ ok: true, value });
  });

  it('exposes the JSON Schema without annotating the user schema', () => {
    const before = JSON.stringify(Point);
    const validator = interpretiveValidator(Point);
    validator.validate({ x: 'no' });
    expect(JSON.stringify(Point)).toBe(before);
    expect(validator.jsonSchema).toEqual(JSON.parse(before));
  });
});
