import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { InvalidSchemaError } from '../errors/invalid-schema-error';
import { reduceError } from '../errors/keel-error';
import { kindByKeyword } from './ajv-message';
import { formatPath, type IssuePath, type ValidationIssue } from './issue';
import type { SchemaValidator } from './schema-validator';
import { valueAt } from './value-at';

// ajv-formats ships CommonJS; its default export arrives wrapped under some bundlers.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

/**
 * Strict about the schema itself (unknown keywords and formats are errors, so a plain object of
 * Zod fields is refused rather than read as a schema that accepts anything), lenient about style
 * (union types, `properties` without `type`).
 */
function newAjv(): Ajv {
  const instance = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictTuples: false, strictRequired: false, allowUnionTypes: true });
  addFormats(instance);
  return instance;
}

let sharedAjv: Ajv | undefined;
const ajv = (): Ajv => (sharedAjv ??= newAjv());

const compiled = new WeakMap<object, ValidateFunction>();


/** Turns a JSON Pointer (`/items/0/name`) into an issue path (`['items', 0, 'name']`). */
export function parsePointer(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : part));
}

function expectedOf(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return String(params.type);
    case 'enum':
      return (params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ');
    case 'const':
      return JSON.stringify(params.allowedValue);
    case 'format':
      return String(params.format);
    case 'pattern':
      return String(params.pattern);
    default:
      return 'limit' in params ? `${error.keyword} ${String(params.limit)}` : undefined;
  }
}

function toIssue(error: ErrorObject, data: unknown): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  let path: IssuePath = parsePointer(error.instancePath);
  if (error.keyword === 'required') path = [...path, String(params.missingProperty)];
  if (error.keyword === 'additionalProperties') path = [...path, String(params.additionalProperty)];
  const kind = kindByKeyword[error.keyword] ?? 'other';
  const expected = expectedOf(error);
  const issue: { -readonly [K in keyof ValidationIssue]: ValidationIssue[K] } = {
    path,
    pathText: formatPath(path),
    kind,
    message: error.message ?? error.keyword,
  };
  if (expected !== undefined) issue.expected = expected;
  if (kind !== 'missing') issue.received = valueAt(data, path);
  return issue;
}

function isUnion(error: ErrorObject): boolean {
  return error.keyword === 'anyOf' || error.keyword === 'oneOf';
}

/**
 * Turns ajv errors into issues. A union whose branches are all constants (TypeBox's
 * `Union([Literal('a'), Literal('b')])`) becomes one `enum` issue listing each allowed value once;
 * a union's branch errors are folded into the union issue rather than listed one by one. Branch
 * errors are matched to their union by instance path and schema path, so each array item's union
 * gets its own branches: linear in the number of errors.
 */
export function issuesFromAjv(errors: readonly ErrorObject[], data: unknown): ValidationIssue[] {
  const unionsAt = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    if (!isUnion(error)) continue;
    const list = unionsAt.get(error.instancePath);
    if (list) list.push(error);
    else unionsAt.set(error.instancePath, [error]);
  }
  if (unionsAt.size === 0) return errors.map((error) => toIssue(error, data));

  const unionOf = (error: ErrorObject): ErrorObject | undefined => {
    let path = error.instancePath;
    while (true) {
      for (const union of unionsAt.get(path) ?? []) {
        if (union !== error && error.schemaPath.startsWith(`${union.schemaPath}/`)) return union;
      }
      if (path === '') return undefined;
      path = path.slice(0, path.lastIndexOf('/'));
    }
  };
  const branches = new Map<ErrorObject, ErrorObject[]>();
  const folded = new Set<ErrorObject>();
  for (const error of errors) {
    const union = unionOf(error);
    if (!union) continue;
    folded.add(error);
    const list = branches.get(union);
    if (list) list.push(error);
    else branches.set(union, [error]);
  }
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    if (folded.has(error)) continue;
    const own = isUnion(error) ? branches.get(error) : undefined;
    if (own && own.length > 0 && own.every((branch) => branch.keyword === 'const')) {
      const values = [...new Set(own.map((branch) => JSON.stringify((branch.params as { allowedValue: unknown }).allowedValue)))];
      const path = parsePointer(error.instancePath);
      issues.push({ path, pathText: formatPath(path), kind: 'enum', expected: values.join(', '), received: valueAt(data, path), message: `must be one of ${values.join(', ')}` });
      continue;
    }
    const issue = toIssue(error, data);
    issues.push(own && own.length > 0 ? { ...issue, branches: own.map((branch) => toIssue(branch, data)) } : issue);
  }
  return issues;
}

/** The compile error of a schema as an {@link InvalidSchemaError}, with a hint for the usual mistake. */
function invalidSchema(error: unknown): InvalidSchemaError {
  const message = reduceError(error).message;
  const hint = /unknown keyword/.test(message)
    ? ' (a plain object of fields is not a schema: wrap Zod fields in z.object({...}), TypeBox ones in Type.Object({...}))'
    : '';
  return new InvalidSchemaError({ message: `not a valid JSON Schema: ${message}${hint}`, cause: error });
}

/**
 * A validator for a JSON Schema (TypeBox schemas are JSON Schema), compiled once per schema
 * object with ajv (`allErrors`, formats from ajv-formats, strict about unknown keywords) and cached.
 * @throws {InvalidSchemaError} when the schema fails the meta-schema or uses an unknown keyword or format.
 */
export function ajvValidator<T>(schema: object): SchemaValidator<T> {
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      validate = ajv().compile(schema);
    } catch (error) {
      // Another schema object already took this `$id` in the shared instance: compile on its own.
      if ((schema as { $id?: unknown }).$id === undefined) throw invalidSchema(error);
      try {
        validate = newAjv().compile(schema);
      } catch (retryError) {
        throw invalidSchema(retryError);
      }
    }
    compiled.set(schema, validate);
  }
  const check = validate;
  const jsonSchema = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  const description = typeof jsonSchema.description === 'string' ? jsonSchema.description : undefined;
  return {
    jsonSchema,
    ...(description === undefined ? {} : { description }),
    validate(value) {
      if (check(value)) return { ok: true, value: value as T };
      return { ok: false, issues: issuesFromAjv(check.errors ?? [], value) };
    },
  };
}
