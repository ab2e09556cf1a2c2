import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { InvalidSchemaError } from '../errors/invalid-schema-error';
import { reduceError } from '../errors/keel-error';
import { kindByKeyword } from './ajv-message';
import { checkSchema } from './check-schema';
import { isMultipleOf } from './decimal-multiple';
import type { Dialect } from './dialect';
import { FORMATS } from './formats/formats';
import { formatPath, type IssuePath, parsePointer, type ValidationIssue } from './issue';
import { interpretiveValidator } from './interpretive-validator';
import type { SchemaValidator } from './schema-validator';
import { guardedCheck } from './validate-output';
import { valueAt } from './value-at';

/**
 * What a schema may say is decided before ajv sees it ({@link checkSchema}, shared with the
 * interpreter, meta-schema included), so ajv itself is neither strict nor checks the meta-schema; it reads own properties only (`required: ["toString"]`
 * is not met by `{}`) and checks Keel's formats.
 */
const OPTIONS: Options = { allErrors: true, strict: false, validateSchema: false, logger: false, ownProperties: true, allowUnionTypes: true };

/** `multipleOf` under another name, checked on decimals ({@link isMultipleOf}) where ajv divides floats. */
const MULTIPLE_OF = 'x-keel-multipleOf';

function checkMultipleOf(this: unknown, divisor: number, value: number): boolean {
  if (isMultipleOf(value, divisor)) return true;
  (checkMultipleOf as { errors?: unknown }).errors = [{ keyword: 'multipleOf', message: `must be multiple of ${divisor}`, params: { multipleOf: divisor } }];
  return false;
}

function newAjv(dialect: Dialect): Ajv {
  const instance = dialect === '2020-12' ? new Ajv2020(OPTIONS) : new Ajv(OPTIONS);
  for (const [name, format] of Object.entries(FORMATS)) instance.addFormat(name, { type: format.type, validate: format.check as (value: never) => boolean } as never);
  instance.addKeyword({ keyword: MULTIPLE_OF, type: 'number', schemaType: 'number', validate: checkMultipleOf });
  return instance;
}

/** Keywords ajv is known to get wrong (unevaluatedItems beside contains, unevaluatedProperties beside if/else): such schemas are interpreted. */
const INTERPRETED = /"(?:unevaluatedItems|unevaluatedProperties)"\s*:/;

const shared = new Map<Dialect, Ajv>();
const ajvFor = (dialect: Dialect): Ajv => {
  let instance = shared.get(dialect);
  if (!instance) shared.set(dialect, (instance = newAjv(dialect)));
  return instance;
};

const compiled = new WeakMap<object, ValidateFunction>();

/** ajv skips a property named `__proto__` in `properties`; the same constraint as a pattern, which it keeps. */
function protoAsPattern(node: Record<string, unknown>): void {
  const properties = node.properties;
  if (typeof properties !== 'object' || properties === null || !Object.hasOwn(properties, '__proto__')) return;
  const patterns = (typeof node.patternProperties === 'object' && node.patternProperties !== null ? node.patternProperties : {}) as Record<string, unknown>;
  const proto = (properties as Record<string, unknown>)['__proto__'];
  const existing = Object.hasOwn(patterns, '^__proto__$') ? patterns['^__proto__$'] : undefined;
  node.patternProperties = { ...patterns, '^__proto__$': existing === undefined ? proto : { allOf: [existing, proto] } };
}

/**
 * The schema ajv compiles: a plain copy without the root `$schema` (the dialect picks the ajv
 * build), and in draft-07 without an `$id` beside `$ref`, which that draft ignores.
 */
function compilable(schema: object | boolean, dialect: Dialect): object | boolean {
  const copy = JSON.parse(JSON.stringify(schema)) as unknown;
  if (typeof copy !== 'object' || copy === null) return copy as boolean;
  delete (copy as { $schema?: unknown }).$schema;
  const adjust = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    if (!Array.isArray(value)) {
      const node = value as Record<string, unknown>;
      if (dialect === 'draft-07' && Object.hasOwn(node, '$ref') && Object.hasOwn(node, '$id')) delete node.$id;
      protoAsPattern(node);
      if (typeof node.multipleOf === 'number') {
        node[MULTIPLE_OF] = node.multipleOf;
        delete node.multipleOf;
      }
    }
    for (const child of Object.values(value)) adjust(child);
  };
  adjust(copy);
  return copy;
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
function issuesFromAjv(errors: readonly ErrorObject[], data: unknown): ValidationIssue[] {
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
 * Compiles with the shared ajv of the dialect, or with a new one when another schema object already
 * took this `$id` there; undefined when ajv's compiler recurses without end on an `$id`/`$ref`
 * layout the check accepted (those schemas are interpreted).
 */
function compile(copy: object | boolean, dialect: Dialect): ValidateFunction | undefined {
  const attempt = (instance: Ajv): ValidateFunction | undefined => {
    try {
      return instance.compile(copy);
    } catch (error) {
      if (error instanceof RangeError) return undefined;
      throw error;
    }
  };
  try {
    return attempt(ajvFor(dialect));
  } catch (error) {
    if (typeof copy !== 'object' || (copy as { $id?: unknown }).$id === undefined) throw invalidSchema(error);
    try {
      return attempt(newAjv(dialect));
    } catch (retryError) {
      throw invalidSchema(retryError);
    }
  }
}

/**
 * A validator for a JSON Schema (TypeBox schemas are JSON Schema), compiled once per schema
 * object with ajv (`allErrors`, Keel's formats) and cached. The dialect is the one `$schema`
 * declares (draft-07 or 2020-12; draft-07 when absent), compiled with ajv's build for it. A
 * boolean schema (`true`, `false`) is accepted as JSON Schema defines it. A schema with a keyword
 * ajv gets wrong (`unevaluatedItems`, `unevaluatedProperties`) or that ajv cannot compile is
 * interpreted instead ({@link interpretiveValidator}); values no JSON text holds are refused (see `guardedCheck`).
 * @throws {InvalidSchemaError} when {@link checkSchema} refuses the schema or it fails the meta-schema.
 */
export function ajvValidator<T>(schema: object | boolean): SchemaValidator<T> {
  let validate = typeof schema === 'boolean' ? undefined : compiled.get(schema);
  if (!validate) {
    const { dialect } = checkSchema(schema);
    const copy = compilable(schema, dialect);
    validate = INTERPRETED.test(JSON.stringify(copy)) ? undefined : compile(copy, dialect);
    if (!validate) return interpretiveValidator(schema);
    if (typeof schema !== 'boolean') compiled.set(schema, validate);
  }
  const check = validate;
  const jsonSchema = (typeof schema === 'boolean' ? (schema ? {} : { not: {} }) : JSON.parse(JSON.stringify(schema))) as Record<string, unknown>;
  const description = typeof jsonSchema.description === 'string' ? jsonSchema.description : undefined;
  return {
    jsonSchema,
    ...(description === undefined ? {} : { description }),
    validate: guardedCheck<T>(check, (value) => issuesFromAjv(check.errors ?? [], value)),
    pure: true,
  };
}
