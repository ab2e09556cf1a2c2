import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ajvValidator } from './ajv-validator';
import { formatPath, type ValidationIssue } from './issue';
import type { SchemaValidationResult } from './schema-validator';
import { toValidator } from './to-validator';
import { InvalidSchemaError } from '../errors/invalid-schema-error';

async function issuesOf<T>(result: SchemaValidationResult<T> | Promise<SchemaValidationResult<T>>): Promise<readonly ValidationIssue[]> {
  const settled = await result;
  if (settled.ok) throw new Error('expected validation to fail');
  return settled.issues;
}

const task = Type.Object(
  {
    title: Type.String(),
    amount: Type.Number(),
    level: Type.Union([Type.Literal('low'), Type.Literal('high')]),
    due: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, description: 'A task' },
);

const validTask = { title: 'Pay rent', amount: 50, level: 'low', due: '2026-05-03T00:00:00Z' };

describe('toValidator with TypeBox (ajv)', () => {
  it('accepts a valid value and returns it', async () => {
    const result = await toValidator(task).validate(validTask);
    expect(result).toEqual({ ok: true, value: validTask });
  });

  it('exposes the JSON Schema and description', () => {
    const validator = toValidator(task);
    expect(validator.jsonSchema).toMatchObject({ type: 'object', required: ['title', 'amount', 'level', 'due'], additionalProperties: false });
    expect(validator.description).toBe('A task');
  });

  it('reports a missing field as kind missing with the field in its path and no received value', async () => {
    const { title: _omitted, ...rest } = validTask;
    const issues = await issuesOf(toValidator(task).validate(rest));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: ['title'], pathText: 'title', kind: 'missing' });
    expect(issues[0]).not.toHaveProperty('received');
  });

  it('reports a wrong type with expected and received', async () => {
    const issues = await issuesOf(toValidator(task).validate({ ...validTask, amount: 'USD 50' }));
    expect(issues).toEqual([{ path: ['amount'], pathText: 'amount', kind: 'type', expected: 'number', received: 'USD 50', message: expect.any(String) }]);
  });

  it('reports a property forbidden by additionalProperties: false as extra, at its own path', async () => {
    const issues = await issuesOf(toValidator(task).validate({ ...validTask, colour: 'red' }));
    expect(issues).toEqual([{ path: ['colour'], pathText: 'colour', kind: 'extra', received: 'red', message: expect.any(String) }]);
  });

  it('reports a union of literals as one enum issue listing every value', async () => {
    const issues = await issuesOf(toValidator(task).validate({ ...validTask, level: 'LOW' }));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: ['level'], pathText: 'level', kind: 'enum', received: 'LOW' });
    expect(issues[0]?.expected).toBe('"low", "high"');
  });

  it('reports a bad date-time as a format issue', async () => {
    const issues = await issuesOf(toValidator(task).validate({ ...validTask, due: 'tomorrow' }));
    expect(issues).toEqual([{ path: ['due'], pathText: 'due', kind: 'format', expected: 'date-time', received: 'tomorrow', message: expect.any(String) }]);
  });

  it('reports every issue at once (allErrors)', async () => {
    const issues = await issuesOf(toValidator(task).validate({ amount: 'x', level: 'LOW', due: 'tomorrow', colour: 'red' }));
    expect(issues.map((issue) => `${formatPath(issue.path)}|${issue.kind}`).sort()).toEqual(
      ['title|missing', 'amount|type', 'level|enum', 'due|format', 'colour|extra'].sort(),
    );
  });

  it('maps minLength and maximum to too-small and too-big with the bound', async () => {
    const schema = Type.Object({ name: Type.String({ minLength: 3 }), count: Type.Integer({ maximum: 10 }) });
    const issues = await issuesOf(toValidator(schema).validate({ name: 'ab', count: 11 }));
    expect(issues).toContainEqual({ path: ['name'], pathText: 'name', kind: 'too-small', expected: 'minLength 3', received: 'ab', message: expect.any(String) });
    expect(issues).toContainEqual({ path: ['count'], pathText: 'count', kind: 'too-big', expected: 'maximum 10', received: 11, message: expect.any(String) });
    expect(issues).toHaveLength(2);
  });

  it('maps pattern to kind pattern with the pattern as expected', async () => {
    const schema = Type.Object({ code: Type.String({ pattern: '^[A-Z]{3}$' }) });
    const issues = await issuesOf(toValidator(schema).validate({ code: 'usd' }));
    expect(issues).toEqual([{ path: ['code'], pathText: 'code', kind: 'pattern', expected: '^[A-Z]{3}$', received: 'usd', message: expect.any(String) }]);
  });

  it('gives nested paths that formatPath renders as items[0].name', async () => {
    const schema = Type.Object({ items: Type.Array(Type.Object({ name: Type.String() })) });
    const wrongType = await issuesOf(toValidator(schema).validate({ items: [{ name: 5 }] }));
    expect(wrongType[0]?.path).toEqual(['items', 0, 'name']);
    expect(formatPath(wrongType[0]?.path ?? [])).toBe('items[0].name');

    const missing = await issuesOf(toValidator(schema).validate({ items: [{ name: 'ok' }, {}] }));
    expect(missing[0]).toMatchObject({ path: ['items', 1, 'name'], pathText: 'items[1].name', kind: 'missing' });
    expect(formatPath(missing[0]?.path ?? [])).toBe('items[1].name');
  });

  it('renders the root path as (root)', async () => {
    const issues = await issuesOf(toValidator(Type.Object({})).validate('text'));
    expect(issues[0]).toMatchObject({ path: [], pathText: '(root)', kind: 'type', expected: 'object', received: 'text' });
    expect(formatPath([])).toBe('(root)');
  });

  it('builds the validator once per schema object', () => {
    const schema = Type.Object({ a: Type.String() });
    const first = toValidator(schema);
    expect(toValidator(schema)).toBe(first);
    expect(toValidator(Type.Object({ a: Type.String() }))).not.toBe(first);
  });

  it('validates with a plain JSON Schema wrapped more than once (compiled copy reused)', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const first = ajvValidator(schema);
    const second = ajvValidator(schema);
    expect(await first.validate({ a: 'x' })).toEqual({ ok: true, value: { a: 'x' } });
    expect(await second.validate({})).toMatchObject({ ok: false, issues: [{ path: ['a'], pathText: 'a', kind: 'missing' }] });
  });
});

const zodTask = z
  .object({
    title: z.string(),
    amount: z.number(),
    level: z.enum(['low', 'high']),
    due: z.iso.datetime(),
  })
  .strict();

describe('toValidator with Zod 4 (Standard Schema)', () => {
  it('accepts a valid value and returns the parsed output', async () => {
    expect(await toValidator(zodTask).validate(validTask)).toEqual({ ok: true, value: validTask });
  });

  it('takes jsonSchema from the Standard JSON Schema converter, without $schema', () => {
    const { jsonSchema } = toValidator(zodTask);
    expect(jsonSchema).not.toHaveProperty('$schema');
    expect(jsonSchema).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string' }, amount: { type: 'number' }, level: { enum: ['low', 'high'] }, due: { format: 'date-time' } },
      required: ['title', 'amount', 'level', 'due'],
      additionalProperties: false,
    });
  });

  it('detects a missing field from the data whatever the library says', async () => {
    const { title: _omitted, ...rest } = validTask;
    const issues = await issuesOf(toValidator(zodTask).validate(rest));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: ['title'], pathText: 'title', kind: 'missing' });
    expect(issues[0]).not.toHaveProperty('received');
  });

  it('reports a wrong type with expected and received', async () => {
    const issues = await issuesOf(toValidator(zodTask).validate({ ...validTask, amount: 'USD 50' }));
    expect(issues).toEqual([{ path: ['amount'], pathText: 'amount', kind: 'type', expected: 'number', received: 'USD 50', message: expect.any(String) }]);
  });

  it('turns unrecognized_keys into one extra issue per key', async () => {
    const issues = await issuesOf(toValidator(zodTask).validate({ ...validTask, colour: 'red', size: 3 }));
    expect(issues).toEqual([
      { path: ['colour'], pathText: 'colour', kind: 'extra', received: 'red', message: expect.any(String) },
      { path: ['size'], pathText: 'size', kind: 'extra', received: 3, message: expect.any(String) },
    ]);
  });

  it('reports an enum miss with the allowed values', async () => {
    const issues = await issuesOf(toValidator(zodTask).validate({ ...validTask, level: 'LOW' }));
    expect(issues).toEqual([{ path: ['level'], pathText: 'level', kind: 'enum', expected: '"low", "high"', received: 'LOW', message: expect.any(String) }]);
  });

  it('reports a bad datetime as format date-time', async () => {
    const issues = await issuesOf(toValidator(zodTask).validate({ ...validTask, due: 'tomorrow' }));
    expect(issues).toEqual([{ path: ['due'], pathText: 'due', kind: 'format', expected: 'date-time', received: 'tomorrow', message: expect.any(String) }]);
  });

  it('reports too-small and too-big bounds', async () => {
    const schema = z.object({ name: z.string().min(3), count: z.number().max(10) });
    const issues = await issuesOf(toValidator(schema).validate({ name: 'ab', count: 11 }));
    expect(issues.map((issue) => [formatPath(issue.path), issue.kind])).toEqual([
      ['name', 'too-small'],
      ['count', 'too-big'],
    ]);
  });

  it('keeps nested array paths', async () => {
    const schema = z.object({ items: z.array(z.object({ name: z.string() })) });
    const issues = await issuesOf(toValidator(schema).validate({ items: [{ name: 'a' }, { name: 5 }, {}] }));
    expect(issues.map((issue) => [formatPath(issue.path), issue.kind])).toEqual([
      ['items[1].name', 'type'],
      ['items[2].name', 'missing'],
    ]);
  });

  it('settles asynchronous Standard Schema validation', async () => {
    const schema = z.object({ a: z.string().refine(async (value) => value === 'yes', 'must be yes') });
    const validator = toValidator(schema);
    expect(await validator.validate({ a: 'yes' })).toEqual({ ok: true, value: { a: 'yes' } });
    const issues = await issuesOf(validator.validate({ a: 'no' }));
    expect(issues).toEqual([{ path: ['a'], pathText: 'a', kind: 'other', received: 'no', message: 'must be yes' }]);
  });

  it('builds the validator once per schema object', () => {
    expect(toValidator(zodTask)).toBe(toValidator(zodTask));
  });
});

describe('toValidator with { parse } objects', () => {
  const positive = {
    description: 'a positive number',
    parse(value: unknown): number {
      if (typeof value !== 'number' || value <= 0) throw new Error('expected a positive number');
      return value;
    },
  };

  it('returns the parsed value on success, with description and a default JSON Schema', async () => {
    const validator = toValidator(positive);
    expect(await validator.validate(5)).toEqual({ ok: true, value: 5 });
    expect(validator.description).toBe('a positive number');
    expect(validator.jsonSchema).toEqual({ type: 'object' });
  });

  it('uses the given jsonSchema', () => {
    const schema = { jsonSchema: { type: 'number' }, parse: (value: unknown) => value as number };
    expect(toValidator(schema).jsonSchema).toEqual({ type: 'number' });
  });

  it('turns a thrown plain error into one other issue carrying its message', async () => {
    const issues = await issuesOf(toValidator(positive).validate(-1));
    expect(issues).toEqual([{ path: [], pathText: '(root)', kind: 'other', received: -1, message: 'expected a positive number' }]);
  });

  it('turns a thrown non-error into one other issue', async () => {
    const schema = {
      parse(): never {
        throw 'nope';
      },
    };
    expect(await issuesOf(toValidator(schema).validate(1))).toEqual([{ path: [], pathText: '(root)', kind: 'other', received: 1, message: 'nope' }]);
  });

  it('normalises a thrown error carrying zod-like issues', async () => {
    const schema = {
      parse(): never {
        throw Object.assign(new Error('invalid'), {
          issues: [
            { code: 'invalid_type', expected: 'number', path: ['amount'], message: 'Expected number' },
            { code: 'invalid_type', expected: 'string', path: ['title'], message: 'Required' },
            { code: 'unrecognized_keys', keys: ['colour'], path: [], message: 'Unrecognized key' },
          ],
        });
      },
    };
    const issues = await issuesOf(toValidator(schema).validate({ amount: 'USD 50', colour: 'red' }));
    expect(issues).toEqual([
      { path: ['amount'], pathText: 'amount', kind: 'type', expected: 'number', received: 'USD 50', message: 'Expected number' },
      { path: ['title'], pathText: 'title', kind: 'missing', message: 'Required' },
      { path: ['colour'], pathText: 'colour', kind: 'extra', received: 'red', message: 'Unrecognized key' },
    ]);
  });

  it('handles an asynchronous parse that resolves or rejects', async () => {
    const schema = {
      parse: async (value: unknown): Promise<string> => {
        if (typeof value !== 'string') throw new Error('not a string');
        return value;
      },
    };
    const validator = toValidator(schema);
    expect(await validator.validate('x')).toEqual({ ok: true, value: 'x' });
    expect(await issuesOf(validator.validate(3))).toEqual([{ path: [], pathText: '(root)', kind: 'other', received: 3, message: 'not a string' }]);
  });

  it('builds the validator once per schema object', () => {
    expect(toValidator(positive)).toBe(toValidator(positive));
  });
});

describe('toValidator with invalid input', () => {
  it('throws InvalidSchemaError for values that are not schemas', () => {
    for (const value of [null, undefined, 'string', 42, []]) {
      expect(() => toValidator(value as never)).toThrow(InvalidSchemaError);
    }
  });

  it('refuses a plain object of Zod fields instead of reading it as an accept-anything schema', () => {
    const fields = { n: z.number() };
    expect(() => toValidator(fields as never)).toThrow(InvalidSchemaError);
    expect(() => toValidator(fields as never)).toThrow(/unknown keyword.*"n".*z\.object/);
  });

  it('refuses unknown keywords, unknown formats and schemas that fail the meta-schema', () => {
    expect(() => toValidator({ type: 'object', propertys: {} } as never)).toThrow(/not a valid JSON Schema: .*unknown keyword/);
    expect(() => toValidator({ type: 'string', format: 'no-such-format' } as never)).toThrow(InvalidSchemaError);
    expect(() => toValidator({ type: 'strin' } as never)).toThrow(InvalidSchemaError);
    expect(() => toValidator({ type: 'object', required: 'a' } as never)).toThrow(InvalidSchemaError);
  });

  it('still accepts annotations, union types and properties without a type', () => {
    const schema = { title: 'T', description: 'd', examples: [1], $comment: 'c', type: ['string', 'null'], default: null };
    expect(toValidator(schema as never).validate(null)).toMatchObject({ ok: true });
    expect(toValidator({ properties: { a: { type: 'number' } } } as never).validate({ a: 'x' })).toMatchObject({ ok: false });
  });
});

describe('toValidator with schemas that share an $id', () => {
  it('compiles two different schema objects with the same $id', () => {
    const first = toValidator(Type.Object({ a: Type.String() }, { $id: 'Shared' }));
    const second = toValidator(Type.Object({ b: Type.Number() }, { $id: 'Shared' }));
    expect(first.validate({ a: 'x' })).toMatchObject({ ok: true });
    expect(second.validate({ b: 1 })).toMatchObject({ ok: true });
    expect(second.validate({ b: 'x' })).toMatchObject({ ok: false });
  });
});
