import { InvalidSchemaError } from '../errors/invalid-schema-error';

/** Draft-07 keywords (and the annotations ajv knows), as ajv's strict mode accepts them. */
const KEYWORDS: ReadonlySet<string> = new Set([
  '$id', '$schema', '$ref', '$comment', '$defs', 'definitions', 'title', 'description', 'default', 'examples',
  'readOnly', 'writeOnly', 'deprecated', 'contentMediaType', 'contentEncoding', 'type', 'enum', 'const',
  'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern',
  'format', 'items', 'additionalItems', 'maxItems', 'minItems', 'uniqueItems', 'contains', 'maxProperties',
  'minProperties', 'required', 'properties', 'patternProperties', 'additionalProperties', 'dependencies',
  'propertyNames', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not',
]);

/** The formats ajv-formats defines. */
const FORMATS: ReadonlySet<string> = new Set([
  'date', 'time', 'date-time', 'iso-time', 'iso-date-time', 'duration', 'uri', 'uri-reference', 'uri-template', 'url',
  'email', 'hostname', 'ipv4', 'ipv6', 'regex', 'uuid', 'json-pointer', 'json-pointer-uri-fragment',
  'relative-json-pointer', 'byte', 'int32', 'int64', 'float', 'double', 'password', 'binary',
]);

const TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const SCHEMA_VALUED = ['items', 'additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'not'];
const SCHEMA_LISTS = ['items', 'allOf', 'anyOf', 'oneOf'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'];

const HINT = ' (a plain object of fields is not a schema: wrap Zod fields in z.object({...}), TypeBox ones in Type.Object({...}))';

function invalid(message: string): InvalidSchemaError {
  return new InvalidSchemaError({ message: `not a valid JSON Schema: ${message}` });
}

function check(schema: unknown, location: string): void {
  if (typeof schema === 'boolean') return;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw invalid(`schema at "${location}" must be an object or a boolean`);
  const node = schema as Record<string, unknown>;
  for (const keyword of Object.keys(node)) if (!KEYWORDS.has(keyword)) throw invalid(`strict mode: unknown keyword: "${keyword}"${HINT}`);
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  if (!types.every((type) => TYPES.has(type))) throw invalid(`schema is invalid: data${location.slice(1)}/type must be equal to one of the allowed values`);
  if (node.format !== undefined && !FORMATS.has(String(node.format))) throw invalid(`unknown format "${String(node.format)}" ignored in schema at path "${location}"`);
  for (const keyword of SCHEMA_VALUED) if (keyword in node && !Array.isArray(node[keyword])) check(node[keyword], `${location}/${keyword}`);
  for (const keyword of SCHEMA_LISTS) {
    const list = node[keyword];
    if (Array.isArray(list)) list.forEach((item, index) => check(item, `${location}/${keyword}/${index}`));
  }
  for (const keyword of SCHEMA_MAPS) {
    const map = node[keyword];
    if (typeof map !== 'object' || map === null) continue;
    for (const [key, value] of Object.entries(map)) if (!Array.isArray(value)) check(value, `${location}/${keyword}/${key}`);
  }
}

/**
 * Refuses what ajv's strict mode refuses, for the interpretive validator: unknown keywords, unknown
 * formats and unknown types, so a schema fails the same way with or without code generation.
 * @throws {InvalidSchemaError}
 */
export function checkSchema(schema: unknown): void {
  check(schema, '#');
}
