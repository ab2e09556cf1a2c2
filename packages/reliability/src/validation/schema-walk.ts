import type { Dialect } from './dialect';

/** A schema node: an object or a boolean. */
export type SchemaNode = Readonly<Record<string, unknown>> | boolean;

const SINGLE: Readonly<Record<Dialect, readonly string[]>> = {
  'draft-07': ['additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'not'],
  '2020-12': ['items', 'contains', 'additionalProperties', 'propertyNames', 'if', 'then', 'else', 'not', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'],
};
const LISTS: Readonly<Record<Dialect, readonly string[]>> = {
  'draft-07': ['allOf', 'anyOf', 'oneOf'],
  '2020-12': ['prefixItems', 'allOf', 'anyOf', 'oneOf'],
};
const MAPS: Readonly<Record<Dialect, readonly string[]>> = {
  'draft-07': ['properties', 'patternProperties', 'definitions', '$defs'],
  '2020-12': ['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas'],
};

const isNode = (value: unknown): value is SchemaNode => typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value));

/** One subschema of a node, with the JSON Pointer segments from the node to it. */
export interface Child {
  readonly node: SchemaNode;
  readonly segments: readonly string[];
}

/**
 * The direct subschemas of a schema node in a dialect (never values such as `enum` or `default`),
 * each with its pointer segments. Draft-07 `items` may be one schema or a list; `dependencies`
 * holds schemas beside lists of names.
 */
export function childrenOf(node: SchemaNode, dialect: Dialect): Child[] {
  if (typeof node === 'boolean') return [];
  const children: Child[] = [];
  const add = (value: unknown, segments: string[]) => {
    if (isNode(value)) children.push({ node: value, segments });
  };
  for (const keyword of SINGLE[dialect]) if (Object.hasOwn(node, keyword)) add(node[keyword], [keyword]);
  const lists = dialect === 'draft-07' && Array.isArray(node.items) ? [...LISTS[dialect], 'items'] : LISTS[dialect];
  if (dialect === 'draft-07' && !Array.isArray(node.items) && Object.hasOwn(node, 'items')) add(node.items, ['items']);
  for (const keyword of lists) {
    const list = Object.hasOwn(node, keyword) ? node[keyword] : undefined;
    if (Array.isArray(list)) list.forEach((item, index) => add(item, [keyword, String(index)]));
  }
  const maps = dialect === 'draft-07' ? [...MAPS[dialect], 'dependencies'] : MAPS[dialect];
  for (const keyword of maps) {
    const map = Object.hasOwn(node, keyword) ? node[keyword] : undefined;
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    for (const [key, value] of Object.entries(map)) add(value, [keyword, key]);
  }
  return children;
}
