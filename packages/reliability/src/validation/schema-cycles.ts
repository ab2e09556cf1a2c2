import { InvalidSchemaError } from '../errors/invalid-schema-error';
import type { SchemaIndex } from './schema-index';
import type { SchemaNode } from './schema-walk';

/** The longest chain of subschemas applied to one value, one inside the other: longer ones are refused. */
export const MAX_IN_PLACE_CHAIN = 200;

/** Keywords that apply a subschema to the same value (not to a property or an item of it). */
const IN_PLACE_SINGLE = ['not', 'if', 'then', 'else'];
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'];

function inPlace(node: SchemaNode, index: SchemaIndex): SchemaNode[] {
  if (typeof node === 'boolean') return [];
  const next: SchemaNode[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value))) next.push(value as SchemaNode);
  };
  for (const keyword of IN_PLACE_SINGLE) if (Object.hasOwn(node, keyword)) add(node[keyword]);
  for (const keyword of IN_PLACE_LISTS) if (Array.isArray(node[keyword])) (node[keyword] as unknown[]).forEach(add);
  for (const keyword of ['dependentSchemas', 'dependencies']) {
    const map = node[keyword];
    if (typeof map === 'object' && map !== null) Object.values(map).forEach(add);
  }
  for (const keyword of ['$ref', '$dynamicRef']) {
    const reference = node[keyword];
    if (typeof reference === 'string') add(index.resolve(reference, index.baseOf(node))?.node);
  }
  return next;
}

/**
 * Refuses a schema that refers back to itself without descending into a property or an item
 * (`{ "$ref": "#" }`, two definitions that `$ref` each other): validating any value would never end.
 * Refuses too a chain of more than {@link MAX_IN_PLACE_CHAIN} such subschemas. Found without
 * recursion, so a long chain of references cannot exhaust the stack.
 * @throws {InvalidSchemaError}
 */
export function refuseCycles(index: SchemaIndex): void {
  const state = new Map<SchemaNode, 'open' | 'done'>();
  /** The longest chain of in-place subschemas from each finished node. */
  const chain = new Map<SchemaNode, number>();
  const stack: { node: SchemaNode; next: SchemaNode[] }[] = [];
  const enter = (node: SchemaNode) => {
    state.set(node, 'open');
    stack.push({ node, next: inPlace(node, index) });
  };
  const finish = (node: SchemaNode) => {
    state.set(node, 'done');
    const length = 1 + Math.max(0, ...inPlace(node, index).map((child) => chain.get(child) ?? 0));
    if (length > MAX_IN_PLACE_CHAIN) throw new InvalidSchemaError({ message: `not a valid JSON Schema: more than ${MAX_IN_PLACE_CHAIN} subschemas ($ref, allOf, anyOf...) apply to the same value one inside the other` });
    chain.set(node, length);
  };
  const visitAll = (node: SchemaNode) => {
    if (typeof node === 'boolean' || state.has(node)) return;
    enter(node);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { node: SchemaNode; next: SchemaNode[] };
      const child = top.next.pop();
      if (child === undefined) {
        finish(top.node);
        stack.pop();
      } else if (typeof child !== 'boolean') {
        if (state.get(child) === 'open') throw new InvalidSchemaError({ message: 'not a valid JSON Schema: it refers back to itself through $ref without descending into a property or an item, so validating any value would never end' });
        if (!state.has(child)) enter(child);
      }
    }
  };
  index.forEachNode(visitAll);
}
