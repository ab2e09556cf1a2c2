import { formatPath } from './issue';
import type { Static, TSchema } from '@sinclair/typebox';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { ajvValidator } from './ajv-validator';
import { InvalidSchemaError } from '../errors/invalid-schema-error';
import { reduceError } from '../errors/keel-error';
import { canGenerateCode } from './code-generation';
import { interpretiveValidator } from './interpretive-validator';
import type { SchemaValidationResult, SchemaValidator } from './schema-validator';
import { type ForeignIssue, issuesFromStandard } from './standard-issues';

/** Any object with a `parse` method that returns the value or throws. */
interface ParseSchema<T> {
  parse(value: unknown): T | Promise<T>;
  /** Shown to the model and in errors. */
  readonly description?: string;
  /** JSON Schema sent to providers; `{ type: 'object' }` when absent. */
  readonly jsonSchema?: Readonly<Record<string, unknown>>;
}

/** A schema Keel accepts: TypeBox (or any JSON Schema object), Standard Schema (Zod 4...), or `{ parse }`. */
export type AnySchema = TSchema | StandardSchemaV1 | ParseSchema<unknown>;

/** The validated type a schema produces. */
export type InferSchema<S> = S extends StandardSchemaV1<unknown, infer Output>
  ? Output
  : S extends TSchema
    ? Static<S>
    : S extends ParseSchema<infer Output>
      ? Output
      : unknown;

function isStandard(schema: object): schema is StandardSchemaV1 {
  return '~standard' in schema && typeof (schema as StandardSchemaV1)['~standard']?.validate === 'function';
}

function standardJsonSchema(schema: StandardSchemaV1): Record<string, unknown> {
  const converter = (schema as unknown as Partial<StandardJSONSchemaV1>)['~standard']?.jsonSchema;
  if (!converter) return { type: 'object' };
  const { $schema: _ignored, ...rest } = converter.input({ target: 'draft-07' });
  return rest;
}

function standardValidator<T>(schema: StandardSchemaV1): SchemaValidator<T> {
  const props = schema['~standard'];
  const settle = (value: unknown, result: StandardSchemaV1.Result<unknown>): SchemaValidationResult<T> =>
    result.issues
      ? { ok: false, issues: issuesFromStandard(result.issues as readonly ForeignIssue[], value) }
      : { ok: true, value: result.value as T };
  return {
    jsonSchema: standardJsonSchema(schema),
    validate(value) {
      const result = props.validate(value);
      return result instanceof Promise ? result.then((settled) => settle(value, settled)) : settle(value, result);
    },
  };
}

function parseValidator<T>(schema: ParseSchema<T>): SchemaValidator<T> {
  const fail = (value: unknown, error: unknown): SchemaValidationResult<T> => {
    let foreign: unknown;
    try {
      foreign = (error as { issues?: unknown } | undefined)?.issues;
    } catch {
      foreign = undefined;
    }
    if (Array.isArray(foreign)) return { ok: false, issues: issuesFromStandard(foreign as ForeignIssue[], value) };
    const message = reduceError(error).message;
    return { ok: false, issues: [{ path: [], pathText: formatPath([]), kind: 'other', received: value, message }] };
  };
  return {
    jsonSchema: schema.jsonSchema ?? { type: 'object' },
    ...(schema.description === undefined ? {} : { description: schema.description }),
    validate(value) {
      try {
        const parsed = schema.parse(value);
        if (parsed instanceof Promise) return parsed.then((ok) => ({ ok: true, value: ok }), (error: unknown) => fail(value, error));
        return { ok: true, value: parsed };
      } catch (error) {
        return fail(value, error);
      }
    },
  };
}

const validators = new WeakMap<object, SchemaValidator<unknown>>();

/**
 * Turns any accepted schema into a {@link SchemaValidator} whose issues are normalised. Standard
 * Schema is detected first (Zod objects also have `parse`), then `{ parse }`, then JSON Schema:
 * compiled with ajv, or interpreted where the runtime forbids code generation (edge runtimes).
 * The validator is built once per schema object and cached.
 * @throws {InvalidSchemaError} when the schema is none of these kinds.
 */
export function toValidator<S extends AnySchema>(schema: S): SchemaValidator<InferSchema<S>> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidSchemaError({ message: `a schema must be a TypeBox/JSON Schema object, a Standard Schema, or an object with parse(); got ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}` });
  }
  const cached = validators.get(schema);
  if (cached) return cached as SchemaValidator<InferSchema<S>>;
  const validator = isStandard(schema)
    ? standardValidator<InferSchema<S>>(schema)
    : typeof (schema as ParseSchema<unknown>).parse === 'function'
      ? parseValidator(schema as ParseSchema<InferSchema<S>>)
      : canGenerateCode()
        ? ajvValidator<InferSchema<S>>(schema)
        : interpretiveValidator<InferSchema<S>>(schema);
  validators.set(schema, validator);
  return validator;
}
