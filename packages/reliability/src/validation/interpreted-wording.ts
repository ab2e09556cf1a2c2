import type { OutputUnit } from '@cfworker/json-schema';
import { type KeywordWording, keywordWording } from './ajv-message';

type Node = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isObject(a) || !isObject(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
}

/**
 * The pair of equal items ajv names for a failed `uniqueItems`: with scalar item types declared it
 * scans from the end and keeps the later index first; otherwise it compares each item with the ones
 * before it, from the end.
 */
function duplicatePair(items: readonly unknown[], node: Node): [number, number] | undefined {
  const itemSchema = isObject(node.items) && !Array.isArray(node.items) ? node.items : {};
  const types = Array.isArray(itemSchema.type) ? itemSchema.type : itemSchema.type === undefined ? [] : [itemSchema.type];
  if (types.length > 0 && !types.some((type) => type === 'object' || type === 'array')) {
    const seen = new Map<string, number>();
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (isObject(item)) continue;
      const key = typeof item === 'string' ? `"${item}` : String(item);
      const later = seen.get(key);
      if (later !== undefined) return [later, i];
      seen.set(key, i);
    }
    return undefined;
  }
  for (let i = items.length - 1; i > 0; i--) for (let j = i - 1; j >= 0; j--) if (deepEqual(items[i], items[j])) return [j, i];
  return undefined;
}

/**
 * The wording ajv gives for a failed keyword, for the keywords whose message depends on the value
 * or on what the interpreter reports (`uniqueItems`, `dependencies`, `dependentRequired`); the
 * schema-only wording otherwise.
 */
export function unitWording(unit: OutputUnit, node: Node, value: unknown): KeywordWording {
  if (unit.keyword === 'uniqueItems' && Array.isArray(value)) {
    const pair = duplicatePair(value, node);
    if (pair) return { message: `must NOT have duplicate items (items ## ${pair[0]} and ${pair[1]} are identical)` };
  }
  if (unit.keyword === 'dependencies' || unit.keyword === 'dependentRequired') {
    const property = /^Instance has "(.*)" but does not have ".*"\.$/s.exec(unit.error)?.[1];
    const map = unit.keyword === 'dependencies' ? node.dependencies : node.dependentRequired;
    const names = property !== undefined && isObject(map) && Object.hasOwn(map, property) ? map[property] : undefined;
    if (Array.isArray(names)) return { message: `must have ${names.length === 1 ? 'property' : 'properties'} ${names.join(', ')} when property ${property} is present` };
  }
  return keywordWording(unit.keyword, node);
}
