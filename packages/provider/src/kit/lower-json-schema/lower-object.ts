import { fail, KEPT_ANNOTATIONS, DROPPED_ANNOTATIONS, OPEN_OBJECT_KEYWORDS, type LoweringContext } from './lowering-context';
import { isObject, type Json, pointerText } from './schema-pointer';

/** Merges `allOf` branches that are plain objects into their parent; anything else cannot be lowered. */
export function mergeAllOf(node: Json, at: readonly string[], context: LoweringContext): Json {
  const branches = node['allOf'];
  if (!Array.isArray(branches) || branches.length === 0) fail(`the allOf at ${pointerText(at)} is not a non-empty list`);
  const merged: Json = { ...node };
  delete merged['allOf'];
  // A Map, then Object.fromEntries: a property named `__proto__` stays a property.
  const properties = new Map<string, unknown>(isObject(node['properties']) ? Object.entries(node['properties']) : []);
  const required = new Set(Array.isArray(node['required']) ? (node['required'] as unknown[]) : []);
  for (const branch of branches) {
    if (!isObject(branch)) fail(`an allOf branch at ${pointerText(at)} is not a schema object`);
    for (const [key, value] of Object.entries(branch)) {
      if (key === 'properties' && isObject(value)) {
        for (const [name, property] of Object.entries(value)) {
          if (properties.has(name)) fail(`the allOf at ${pointerText(at)} declares property ${JSON.stringify(name)} twice`);
          properties.set(name, property);
        }
      } else if (key === 'required' && Array.isArray(value)) {
        for (const name of value) required.add(name);
      } else if (key === 'type' && (value === 'object' || merged['type'] === undefined || merged['type'] === value)) {
        merged['type'] = value;
      } else if (KEPT_ANNOTATIONS.has(key) || DROPPED_ANNOTATIONS.has(key) || key === 'additionalProperties') {
        merged[key] ??= value;
      } else {
        fail(`the allOf at ${pointerText(at)} has a branch with ${JSON.stringify(key)}, which cannot be merged`);
      }
    }
  }
  if (merged['type'] !== undefined && merged['type'] !== 'object') fail(`the allOf at ${pointerText(at)} is not an intersection of objects`);
  merged['type'] = 'object';
  merged['properties'] = Object.fromEntries(properties);
  merged['required'] = [...required];
  context.changes.push(`merged allOf into one object at ${pointerText(at)}`);
  return merged;
}

/**
 * The same schema, also accepting `null`: a null type added to a primitive's `type` (and `null` to
 * its enum), an `anyOf` branch `{ type: 'null' }` for a union, and `anyOf: [schema, { type: 'null' }]`
 * around an object, an array, a `$ref` or a `const`.
 */
function nullable(schema: Json): Json {
  const anyOf = schema['anyOf'];
  if (Array.isArray(anyOf)) {
    if (anyOf.some((branch) => isObject(branch) && branch['type'] === 'null')) return schema;
    return { ...schema, anyOf: [...anyOf, { type: 'null' }] };
  }
  const types = Array.isArray(schema['type']) ? (schema['type'] as string[]) : [schema['type'] as string];
  // An object or array keeps its own node and gains a null branch, the form strict mode documents for them.
  if (schema['$ref'] !== undefined || schema['const'] !== undefined || schema['type'] === undefined || types.includes('object') || types.includes('array')) {
    return types.includes('null') ? schema : { anyOf: [schema, { type: 'null' }] };
  }
  const out: Json = { ...schema, type: types.includes('null') ? schema['type'] : [...types, 'null'] };
  if (Array.isArray(schema['enum']) && !schema['enum'].includes(null)) out['enum'] = [...schema['enum'], null];
  return out;
}

export function lowerObject(node: Json, out: Json, at: readonly string[], context: LoweringContext, depth: number, objectDepth: number): void {
  const { stats, changes, dialect } = context;
  stats.objectDepth = Math.max(stats.objectDepth, objectDepth);
  const properties = node['properties'] ?? {};
  if (!isObject(properties)) fail(`the properties at ${pointerText(at)} are not an object`);
  const names = Object.keys(properties);
  const required = node['required'] ?? [];
  if (!Array.isArray(required) || !required.every((name): name is string => typeof name === 'string')) fail(`the required list at ${pointerText(at)} is not a list of names`);
  for (const name of required) if (!names.includes(name)) fail(`the object at ${pointerText(at)} requires ${JSON.stringify(name)}, which it does not declare`);
  // A Map, then Object.fromEntries: a property named `__proto__` stays a property.
  const loweredProperties = new Map<string, Json>();
  for (const name of names) {
    stats.properties += 1;
    stats.stringLength += name.length;
    loweredProperties.set(name, context.lowerNode(properties[name], [...at, 'properties', name], context, depth + 1, objectDepth));
  }
  const optional = names.filter((name) => !required.includes(name));
  stats.optionalProperties += optional.length;
  if (dialect.allRequired) {
    for (const name of optional) {
      loweredProperties.set(name, nullable(loweredProperties.get(name) ?? {}));
      changes.push(`made optional property ${JSON.stringify(name)} required and nullable at ${pointerText(at)} (null means absent)`);
    }
  }
  const additional = node['additionalProperties'];
  const isOpenMap = additional !== undefined && additional !== false && additional !== true && !(isObject(additional) && Object.keys(additional).length === 0);
  if (names.length === 0 && (isOpenMap || OPEN_OBJECT_KEYWORDS.some((keyword) => node[keyword] !== undefined))) {
    fail(`the object at ${pointerText(at)} is a map with free keys, which a constrained decoder cannot represent`);
  }
  if (additional !== false) changes.push(`closed the object at ${pointerText(at)} (additionalProperties: false)`);
  out['properties'] = Object.fromEntries(loweredProperties);
  out['required'] = dialect.allRequired ? names : required.filter((name, index) => required.indexOf(name) === index);
  out['additionalProperties'] = false;
}

export function lowerArray(node: Json, out: Json, at: readonly string[], context: LoweringContext, depth: number, objectDepth: number): void {
  const items = node['items'];
  if (items === undefined) fail(`the array at ${pointerText(at)} has no items schema`);
  if (Array.isArray(items) || node['prefixItems'] !== undefined) fail(`the array at ${pointerText(at)} is a tuple, which a constrained decoder cannot represent`);
  out['items'] = context.lowerNode(items, [...at, 'items'], context, depth + 1, objectDepth);
}
