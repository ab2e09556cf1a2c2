import { InvalidSchemaError } from '../errors/invalid-schema-error';
import { type Dialect, dialectOf } from './dialect';
import { FORMATS } from './formats/formats';
import { checkKeywordValues } from './keyword-values';
import { refuseCycles } from './schema-cycles';
import { SchemaIndex } from './schema-index';
import { childrenOf, type SchemaNode } from './schema-walk';

const COMMON = [
  '$id', '$schema', '$ref', '$comment', '$defs', 'definitions', 'title', 'description', 'default', 'examples',
  'readOnly', 'writeOnly', 'deprecated', 'contentMediaType', 'contentEncoding', 'type', 'enum', 'const',
  'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern',
  'format', 'items', 'maxItems', 'minItems', 'uniqueItems', 'contains', 'maxProperties', 'minProperties', 'required',
  'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'allOf', 'anyOf',
  'oneOf', 'not', 'nullable',
];

/** The keywords each dialect knows (with OpenAPI's `nullable`); any other keyword makes a schema invalid. */
const KEYWORDS: Readonly<Record<Dialect, ReadonlySet<string>>> = {
  'draft-07': new Set([...COMMON, 'additionalItems', 'dependencies']),
  '2020-12': new Set([...COMMON, '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', 'prefixItems', 'unevaluatedItems', 'unevaluatedProperties', 'maxContains', 'minContains', 'dependentRequired', 'dependentSchemas', 'contentSchema']),
};

const TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Deeper schemas are refused: no one writes them, and walking them could exhaust the stack. */
export const MAX_SCHEMA_DEPTH = 200;

const HINT = ' (a plain object of fields is not a schema: wrap Zod fields in z.object({...}), TypeBox ones in Type.Object({...}))';

function invalid(message: string): InvalidSchemaError {
  return new InvalidSchemaError({ message: `not a valid JSON Schema: ${message}` });
}

/** The checks on one node that need no other node. */
function checkNode(node: Readonly<Record<string, unknown>>, location: string, dialect: Dialect): void {
  for (const keyword of Object.keys(node)) if (!KEYWORDS[dialect].has(keyword)) throw invalid(`strict mode: unknown keyword: "${keyword}"${HINT}`);
  checkKeywordValues(node, location, dialect);
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  if (!types.every((type) => TYPES.has(type))) throw invalid(`schema is invalid: data${location.slice(1)}/type must be equal to one of the allowed values`);
  if (node.format !== undefined && !(typeof node.format === 'string' && Object.hasOwn(FORMATS, node.format))) {
    throw invalid(`unknown format ${JSON.stringify(node.format)} in schema at path "${location}"`);
  }
  if (Array.isArray(node.enum) && node.enum.length === 0) throw invalid(`"enum" at "${location}" allows no value: give at least one`);
  if (Object.hasOwn(node, '$dynamicRef') || Object.hasOwn(node, '$dynamicAnchor')) throw invalid(`"$dynamicRef" and "$dynamicAnchor" are not supported (at "${location}"): use "$ref"`);
  if (node.nullable !== undefined) {
    if (types.length === 0) throw invalid(`"nullable" cannot be used without "type" (at "${location}")`);
    if (node.nullable === false && types.includes('null')) throw invalid(`"type": "null" contradicts "nullable": false (at "${location}")`);
  }
}

function walk(node: SchemaNode, location: string, depth: number, dialect: Dialect, visit: (node: Readonly<Record<string, unknown>>, location: string) => void): void {
  if (typeof node === 'boolean') return;
  if (depth > MAX_SCHEMA_DEPTH) throw invalid(`schema nested deeper than ${MAX_SCHEMA_DEPTH} levels at "${location}"`);
  visit(node, location);
  for (const child of childrenOf(node, dialect)) walk(child.node, `${location}/${child.segments.join('/')}`, depth + 1, dialect, visit);
}

/** What a checked schema is read with: its dialect and the index its references resolve in. */
export interface CheckedSchema {
  readonly dialect: Dialect;
  readonly index: SchemaIndex;
}

/**
 * Refuses, the same way for both validators (with and without code generation), what Keel does not
 * validate: a dialect other than draft-07 or 2020-12, unknown keywords, keyword values the
 * meta-schema forbids, unknown formats and types,
 * `enum: []`, `nullable` without `type`, `$dynamicRef`, and a `$ref` or `$dynamicRef` that names nothing in the
 * schema (no other document is fetched), or that refers back to itself without descending into a
 * property or an item. `if` without `then` or `else` is accepted: it changes nothing.
 * @throws {InvalidSchemaError}
 */
export function checkSchema(schema: unknown): CheckedSchema {
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) throw invalid('schema at "#" must be an object or a boolean');
  const dialect = dialectOf(schema);
  let root: SchemaNode;
  try {
    root = JSON.parse(JSON.stringify(schema)) as SchemaNode;
  } catch (error) {
    throw new InvalidSchemaError({ message: 'not a valid JSON Schema: it is not JSON data (a cycle, a BigInt, or nested too deeply)', cause: error });
  }
  walk(root, '#', 0, dialect, (node, location) => checkNode(node, location, dialect));
  const index = new SchemaIndex(root, dialect);
  walk(root, '#', 0, dialect, (node, location) => {
    for (const keyword of ['$ref', '$dynamicRef'] as const) {
      const reference = node[keyword];
      if (typeof reference !== 'string') continue;
      if (!index.resolve(reference, index.baseOf(node))) {
        throw invalid(`${keyword} ${JSON.stringify(reference)} at "${location}" names nothing in this schema (other documents are never fetched)`);
      }
    }
  });
  refuseCycles(index);
  return { dialect, index };
}
