import type { Dialect } from './dialect';

const VALUES: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples']);

/**
 * The copy of a schema the interpreter reads, rewritten where it would read the schema otherwise
 * than ajv does:
 * - draft-07 keywords beside a `$ref` are honoured (a `maxLength` beside a `$ref` still limits the
 *   string): the `$ref` moves into an `allOf` of its node; an `$id` beside `$ref` is dropped, as
 *   draft-07 ignores it;
 * - OpenAPI's `nullable: true` adds `null` to the node's `type` (`nullable` stays, for the wording).
 * Keys named `__proto__` stay own properties.
 */
export function interpreterCopy(schema: unknown, dialect: Dialect): unknown {
  const copy = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map(copy);
    const node = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, VALUES.has(key) ? child : copy(child)]));
    if (node.nullable === true && node.type !== undefined) {
      const types = Array.isArray(node.type) ? node.type : [node.type];
      if (!types.includes('null')) node.type = [...types, 'null'];
    }
    if (dialect !== 'draft-07' || !Object.hasOwn(node, '$ref') || Object.keys(node).every((key) => key === '$ref' || key === '$id')) return node;
    const rest = Object.fromEntries(Object.entries(node).filter(([key]) => key !== '$ref' && key !== '$id'));
    return { ...rest, allOf: [{ $ref: node.$ref }, ...(Array.isArray(rest.allOf) ? rest.allOf : [])] };
  };
  return copy(JSON.parse(JSON.stringify(schema)));
}
