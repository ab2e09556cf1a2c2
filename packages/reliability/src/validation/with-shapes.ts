import type { IssuePath, ValidationIssue } from './issue';

type Schema = Readonly<Record<string, unknown>>;

/** Longest rendered shape, in characters. */
export const MAX_SHAPE_CHARS = 200;

const rendered = new WeakMap<object, string>();

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema of the value at `path`, following `properties` and `items`; undefined past anything else. */
function schemaAt(root: Schema, path: IssuePath): Schema | undefined {
  let current: Schema | undefined = root;
  for (const segment of path) {
    if (!current) return undefined;
    const next: unknown = typeof segment === 'number' ? current.items : isSchema(current.properties) ? current.properties[segment] : undefined;
    current = isSchema(next) ? next : undefined;
  }
  return current;
}

function render(schema: Schema, depth: number): string {
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(branches)) return branches.map((branch) => (isSchema(branch) ? render(branch, depth) : 'any')).join(' | ');
  const type = Array.isArray(schema.type) ? (schema.type as string[]).join(' | ') : typeof schema.type === 'string' ? schema.type : undefined;
  if (type === 'object' || (type === undefined && isSchema(schema.properties))) {
    if (!isSchema(schema.properties)) return 'object';
    if (depth >= 2) return '{…}';
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const fields = Object.entries(schema.properties).map(([key, value]) => `${key}${required.includes(key) ? '' : '?'}: ${isSchema(value) ? render(value, depth + 1) : 'any'}`);
    return `{${fields.join(', ')}}`;
  }
  if (type === 'array') return isSchema(schema.items) ? `${render(schema.items, depth + 1)}[]` : 'array';
  return type ?? 'any';
}

/** A compact rendering of a schema (`{name: string, price?: number, tags: string[]}`), capped. */
export function describeShape(schema: Schema): string {
  let shape = rendered.get(schema);
  if (shape === undefined) {
    const full = render(schema, 0);
    shape = full.length > MAX_SHAPE_CHARS ? `${full.slice(0, MAX_SHAPE_CHARS)}…` : full;
    rendered.set(schema, shape);
  }
  return shape;
}

/**
 * Adds to each missing or extra property issue the expected shape of the object that holds it, so
 * feedback can show the structure to build in one go. Each object schema is rendered once.
 */
export function withShapes(issues: readonly ValidationIssue[], jsonSchema: Readonly<Record<string, unknown>>): readonly ValidationIssue[] {
  if (!issues.some((issue) => issue.kind === 'missing' || issue.kind === 'extra')) return issues;
  return issues.map((issue) => {
    if ((issue.kind !== 'missing' && issue.kind !== 'extra') || issue.shape !== undefined) return issue;
    const parent = schemaAt(jsonSchema, issue.path.slice(0, -1));
    if (!parent || !isSchema(parent.properties)) return issue;
    return { ...issue, shape: describeShape(parent) };
  });
}
