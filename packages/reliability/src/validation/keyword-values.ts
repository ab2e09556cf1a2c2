import { InvalidSchemaError } from '../errors/invalid-schema-error';
import type { Dialect } from './dialect';
import { isUriReference } from './formats/uri';

type Check = (value: unknown, dialect: Dialect) => boolean;
interface Rule {
  readonly check: Check;
  /** What the value must be, read after "must be". */
  readonly expected: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isSchema = (value: unknown): boolean => typeof value === 'boolean' || isObject(value);
const isRegex = (value: unknown): boolean => {
  if (typeof value !== 'string') return false;
  try {
    new RegExp(value, 'u');
    return true;
  } catch {
    return false;
  }
};
const uniqueStrings = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === 'string') && new Set(value).size === value.length;

const rule = (expected: string, check: Check): Rule => ({ expected, check });
const count = rule('a non-negative integer', (value) => Number.isInteger(value) && (value as number) >= 0);
const number = rule('a number', (value) => typeof value === 'number' && Number.isFinite(value));
const boolean = rule('a boolean', (value) => typeof value === 'boolean');
const string = rule('a string', (value) => typeof value === 'string');
const schema = rule('a schema (an object or a boolean)', isSchema);
const schemas = rule('a non-empty array of schemas', (value) => Array.isArray(value) && value.length > 0 && value.every(isSchema));
const schemaMap = rule('an object of schemas', (value) => isObject(value) && Object.values(value).every(isSchema));

/** What each keyword's value must be (the meta-schemas' constraints), for both dialects unless noted. */
const RULES: Readonly<Record<string, Rule>> = {
  ...Object.fromEntries(['maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'minProperties', 'maxContains', 'minContains'].map((keyword) => [keyword, count])),
  ...Object.fromEntries(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].map((keyword) => [keyword, number])),
  ...Object.fromEntries(['uniqueItems', 'readOnly', 'writeOnly', 'deprecated', 'nullable'].map((keyword) => [keyword, boolean])),
  ...Object.fromEntries(['$id', '$schema', '$ref', '$dynamicRef'].map((keyword) => [keyword, rule('a URI reference (RFC 3986)', (value) => typeof value === 'string' && isUriReference(value))])),
  ...Object.fromEntries(['$anchor', '$dynamicAnchor', '$comment', 'title', 'description', 'format', 'contentMediaType', 'contentEncoding'].map((keyword) => [keyword, string])),
  ...Object.fromEntries(['additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'not', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'].map((keyword) => [keyword, schema])),
  ...Object.fromEntries(['prefixItems', 'allOf', 'anyOf', 'oneOf'].map((keyword) => [keyword, schemas])),
  ...Object.fromEntries(['properties', '$defs', 'definitions', 'dependentSchemas'].map((keyword) => [keyword, schemaMap])),
  multipleOf: rule('a number greater than 0', (value) => typeof value === 'number' && Number.isFinite(value) && value > 0),
  pattern: rule('a valid regular expression (Unicode mode)', isRegex),
  patternProperties: rule('an object of schemas keyed by valid regular expressions', (value) => isObject(value) && Object.entries(value).every(([key, item]) => isRegex(key) && isSchema(item))),
  required: rule('an array of distinct strings', uniqueStrings),
  enum: rule('an array', Array.isArray),
  examples: rule('an array', Array.isArray),
  type: rule('a type name or an array of distinct type names', (value) => typeof value === 'string' || (uniqueStrings(value) && (value as unknown[]).length > 0)),
  items: rule('a schema, or in draft-07 an array of schemas', (value, dialect) => isSchema(value) || (dialect === 'draft-07' && Array.isArray(value) && value.every(isSchema))),
  dependencies: rule('an object of schemas or arrays of distinct strings', (value) => isObject(value) && Object.values(value).every((item) => isSchema(item) || uniqueStrings(item))),
  dependentRequired: rule('an object of arrays of distinct strings', (value) => isObject(value) && Object.values(value).every(uniqueStrings)),
  $vocabulary: rule('an object of booleans', (value) => isObject(value) && Object.values(value).every((item) => typeof item === 'boolean')),
};

/**
 * Refuses a keyword whose value breaks the dialect's meta-schema (`minLength: -1`, `required: "a"`,
 * a `pattern` that is no regular expression), with one message for both validators.
 * @throws {InvalidSchemaError}
 */
export function checkKeywordValues(node: Readonly<Record<string, unknown>>, location: string, dialect: Dialect): void {
  for (const [keyword, value] of Object.entries(node)) {
    const known = Object.hasOwn(RULES, keyword) ? RULES[keyword] : undefined;
    if (known && !known.check(value, dialect)) {
      throw new InvalidSchemaError({ message: `not a valid JSON Schema: "${keyword}" at "${location}" must be ${known.expected}` });
    }
  }
}
