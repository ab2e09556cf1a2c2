import { ajvValidator } from '@keel/reliability/internal';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `value` is valid against `schema`, read with the definitions of `root`. */
export function matchesSchema(value: unknown, schema: unknown, root: Json = isObject(schema) ? schema : {}): boolean {
  if (!isObject(schema)) return false;
  const withDefinitions = schema === root || root['$defs'] === undefined ? schema : { ...schema, $defs: root['$defs'] };
  const result = ajvValidator(withDefinitions).validate(value);
  if (result instanceof Promise) throw new Error('constrained decoder: the schema validator is asynchronous');
  return result.ok;
}

function resolve(schema: Json, root: Json): Json {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  if (ref === '#') return root;
  const name = decodeURIComponent(ref.split('/').at(-1) ?? '').replaceAll('~1', '/').replaceAll('~0', '~');
  const definitions = isObject(root['$defs']) ? root['$defs'] : {};
  const target = definitions[name];
  if (!isObject(target)) throw new Error(`constrained decoder: unresolved $ref ${ref}`);
  return resolve(target, root);
}

function typesOf(schema: Json): string[] {
  const type = schema['type'];
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === 'string') : [];
}

const formatExamples: Readonly<Record<string, string>> = {
  'date-time': '2026-11-23T10:00:00Z',
  date: '2026-11-23',
  time: '10:00:00Z',
  duration: 'P1D',
  email: 'ada@example.com',
  hostname: 'example.com',
  uri: 'https://example.com/',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
};

/** The value a constrained decoder writes when the model has nothing to say: the schema's simplest instance. */
export function exampleOf(schema: unknown, root: Json, depth = 0): unknown {
  if (!isObject(schema)) throw new Error('constrained decoder: a schema that is not an object');
  const node = resolve(schema, root);
  if (node['const'] !== undefined) return node['const'];
  if (Array.isArray(node['enum'])) return node['enum'][0];
  if (Array.isArray(node['anyOf'])) {
    const branches = node['anyOf'].filter(isObject);
    // Deep in a recursive schema, prefer the branch that ends the recursion (null).
    const preferred = depth > 4 ? branches.find((branch) => branch['type'] === 'null') : branches.find((branch) => branch['type'] !== 'null');
    return exampleOf(preferred ?? branches[0], root, depth + 1);
  }
  const types = typesOf(node);
  const type = depth > 4 && types.includes('null') ? 'null' : (types.find((entry) => entry !== 'null') ?? types[0]);
  switch (type) {
    case 'object': {
      const properties = isObject(node['properties']) ? node['properties'] : {};
      const required = Array.isArray(node['required']) ? node['required'] : [];
      return Object.fromEntries(Object.entries(properties).filter(([name]) => required.includes(name)).map(([name, property]) => [name, exampleOf(property, root, depth + 1)]));
    }
    case 'array': {
      const count = typeof node['minItems'] === 'number' ? node['minItems'] : 0;
      return Array.from({ length: count }, () => exampleOf(node['items'], root, depth + 1));
    }
    case 'string':
      return typeof node['format'] === 'string' ? (formatExamples[node['format']] ?? 'x') : 'x';
    case 'integer':
    case 'number':
      return typeof node['minimum'] === 'number' ? node['minimum'] : 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * What a constrained decoder emits when the model aims at `intent`: the tokens the schema allows
 * closest to it. Properties the schema does not declare cannot be written (dropped), required ones
 * the model left out are written (null where allowed, else the simplest value), a value of the
 * wrong type becomes the simplest value of the right one, numbers are clamped to their bounds,
 * arrays to their item counts, keys come in the schema's order. Strings are kept as they are
 * (patterns and formats are not rewritten): a test that aims at an invalid one fails in {@link decode}.
 */
export function constrain(intent: unknown, schema: unknown, root: Json): unknown {
  if (!isObject(schema)) throw new Error('constrained decoder: a schema that is not an object');
  const node = resolve(schema, root);
  if (node['const'] !== undefined) return node['const'];
  if (Array.isArray(node['enum'])) return node['enum'].includes(intent as never) ? intent : node['enum'][0];
  if (Array.isArray(node['anyOf'])) {
    const branches = node['anyOf'].filter(isObject);
    if (intent === undefined && branches.some((branch) => branch['type'] === 'null')) return null;
    const exact = branches.find((branch) => matchesSchema(intent, branch, root));
    if (exact !== undefined) return intent;
    const sameType = branches.find((branch) => {
      const resolved = resolve(branch, root);
      return typesOf(resolved).includes(jsonTypeOf(intent)) || (jsonTypeOf(intent) === 'integer' && typesOf(resolved).includes('number'));
    });
    return sameType === undefined ? exampleOf(node, root) : constrain(intent, sameType, root);
  }
  const types = typesOf(node);
  const actual = jsonTypeOf(intent);
  const fits = types.includes(actual) || (actual === 'integer' && types.includes('number'));
  if (!fits) return intent === undefined && types.includes('null') ? null : exampleOf(node, root);
  switch (actual) {
    case 'object': {
      const properties = isObject(node['properties']) ? node['properties'] : {};
      const required = Array.isArray(node['required']) ? node['required'] : [];
      const given = intent as Json;
      const out: Json = {};
      for (const [name, property] of Object.entries(properties)) {
        if (Object.hasOwn(given, name)) out[name] = constrain(given[name], property, root);
        else if (required.includes(name)) out[name] = constrain(undefined, property, root);
      }
      return out;
    }
    case 'array': {
      let items = (intent as unknown[]).map((item) => constrain(item, node['items'], root));
      if (typeof node['maxItems'] === 'number') items = items.slice(0, node['maxItems']);
      const minimum = typeof node['minItems'] === 'number' ? node['minItems'] : 0;
      while (items.length < minimum) items.push(exampleOf(node['items'], root));
      return items;
    }
    case 'integer':
    case 'number': {
      let value = intent as number;
      if (typeof node['minimum'] === 'number') value = Math.max(value, node['minimum']);
      if (typeof node['maximum'] === 'number') value = Math.min(value, node['maximum']);
      return types.includes('number') ? value : Math.round(value);
    }
    default:
      return intent;
  }
}

/**
 * Simulates constrained decoding to `schema` (the schema the request sent): the value the model
 * writes when it aims at `intent` ({@link constrain}), checked against that schema. A value no
 * constrained decoder could write (a string breaking its pattern) throws, so a wrong test fixture
 * fails visibly instead of the server sending what the real API never would.
 */
export function decode(intent: unknown, schema: unknown): unknown {
  if (!isObject(schema)) throw new Error('constrained decoder: the schema is not an object');
  const value = constrain(intent, schema, schema);
  if (!matchesSchema(value, schema)) throw new Error(`constrained decoder: ${JSON.stringify(value)} does not match the schema sent; no decoder would write it`);
  return value;
}
