import type { LoweredSchema } from '@keel/core/internal';

type Json = Record<string, unknown>;

/**
 * The subset of JSON Schema one provider's constrained decoder accepts, as data. The engine
 * ({@link lowerJsonSchema}) is shared; each adapter describes its vendor's rules in its own
 * `lower-schema.ts`, with the vendor's documentation cited there.
 */
export interface DecoderDialect {
  /** Name used in reasons, e.g. `Anthropic`. */
  readonly label: string;
  /**
   * Every property must be listed in `required` (OpenAI strict mode); an optional property is
   * sent as required and nullable, and Keel maps the model's `null` back to an absent property.
   */
  readonly allRequired: boolean;
  /** `$ref` cycles (recursive schemas) are accepted. */
  readonly recursion: boolean;
  /** String `format` values the decoder accepts; any other format is removed. */
  readonly formats: ReadonlySet<string>;
  /**
   * Constraint keywords the decoder accepts and enforces, beyond types, enums, consts, unions,
   * properties and items (e.g. `minimum`, `pattern`, `minItems`). Every other constraint is
   * removed from the sent schema and listed in the changes.
   */
  readonly constraints: ReadonlySet<string>;
  /** Largest `minItems` the decoder accepts; a larger one is lowered to it. */
  readonly minItemsCap: number;
  /** Limits on the whole schema; returns why the schema exceeds them, or `undefined`. */
  readonly limits: (stats: SchemaStats) => string | undefined;
}

/** Counts gathered while lowering, checked against a dialect's limits. */
export interface SchemaStats {
  /** Properties declared, over every object. */
  properties: number;
  /** Properties not listed in their object's `required` (before any were made required). */
  optionalProperties: number;
  /** Nodes that are unions: `anyOf`, or a `type` list of more than one type (`null` counted). */
  unions: number;
  /** Deepest nesting of objects (the root object is 1). */
  objectDepth: number;
  /** Enum values, over every enum. */
  enumValues: number;
  /** The largest enum's value count, and the total length of its string values. */
  largestEnum: { values: number; stringLength: number };
  /** Characters of every property name, definition name, enum and const string value. */
  stringLength: number;
}

/** The outcome of lowering: the schema sent and its changes, or why it cannot be lowered. */
export type LoweringOutcome = { readonly ok: true; readonly lowered: LoweredSchema } | { readonly ok: false; readonly reason: string };

const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
/** Kept as they are: they constrain nothing. */
const KEPT_ANNOTATIONS = new Set(['description', 'title']);
/** Dropped silently: annotations and identifiers that constrain nothing. */
const DROPPED_ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$anchor']);
/** Handled by the engine itself. */
const STRUCTURAL = new Set([
  'type', 'nullable', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', '$defs', 'definitions', 'properties', 'required', 'additionalProperties', 'items',
]);
/** Structure the decoder cannot represent when the object has no declared properties. */
const OPEN_OBJECT_KEYWORDS = ['patternProperties', 'unevaluatedProperties'] as const;
/** A schema nested deeper than this is refused (and so is a schema object that contains itself). */
const MAX_DEPTH = 64;

class Unlowerable extends Error {}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function jsonTypeOf(value: string | number | boolean | null): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function escapePointer(segment: string): string {
  return segment.includes('~') || segment.includes('/') ? segment.replaceAll('~', '~0').replaceAll('/', '~1') : segment;
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

function pointerText(at: readonly string[]): string {
  return at.length === 0 ? '/' : `/${at.map(escapePointer).join('/')}`;
}

interface Definition {
  readonly raw: unknown;
  readonly source: '$defs' | 'definitions';
  state: 'pending' | 'lowering' | 'done';
}

interface Context {
  readonly dialect: DecoderDialect;
  readonly changes: string[];
  readonly stats: SchemaStats;
  readonly definitions: Map<string, Definition>;
  readonly loweredDefinitions: Map<string, Json>;
  readonly ancestors: Set<object>;
}

function fail(reason: string): never {
  throw new Unlowerable(reason);
}

/** A local reference: a definition's name, or `#` (the root). Anything else cannot be lowered. */
function refTarget(ref: unknown, at: readonly string[]): string {
  if (typeof ref !== 'string') fail(`the $ref at ${pointerText(at)} is not a string`);
  if (ref === '#') return '#';
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (match?.[2] === undefined) fail(`the $ref ${JSON.stringify(ref)} at ${pointerText(at)} is not a local definition (#/$defs/<name>)`);
  return unescapePointer(match[2]);
}

/** Resolves a reference, lowering its definition the first time (and finding cycles). */
function useDefinition(name: string, at: readonly string[], context: Context): string {
  if (name === '#') {
    if (!context.dialect.recursion) fail(`the schema is recursive (a $ref to the root at ${pointerText(at)}); ${context.dialect.label} does not accept recursive schemas`);
    return '#';
  }
  const definition = context.definitions.get(name);
  if (definition === undefined) fail(`the $ref at ${pointerText(at)} names a definition that does not exist: ${JSON.stringify(name)}`);
  if (definition.state === 'lowering' && !context.dialect.recursion) {
    fail(`the schema is recursive (definition ${JSON.stringify(name)} refers to itself); ${context.dialect.label} does not accept recursive schemas`);
  }
  if (definition.state === 'pending') {
    definition.state = 'lowering';
    context.loweredDefinitions.set(name, {});
    const lowered = lowerNode(definition.raw, [definition.source, name], context, 0, 0);
    context.loweredDefinitions.set(name, lowered);
    definition.state = 'done';
  }
  return `#/$defs/${escapePointer(name)}`;
}

/** The node's types: its `type` (one or a list), `null` added for OpenAPI's `nullable: true`. */
function typesOf(node: Json, at: readonly string[], context: Context): string[] | undefined {
  const type = node['type'];
  let types: string[] | undefined;
  if (type !== undefined) {
    const list = Array.isArray(type) ? type : [type];
    if (list.length === 0 || !list.every((entry): entry is string => typeof entry === 'string' && JSON_TYPES.has(entry))) {
      fail(`the type at ${pointerText(at)} is not a JSON type or a list of them`);
    }
    types = [...new Set(list)];
  }
  if (node['nullable'] === true && types !== undefined && !types.includes('null')) {
    types.push('null');
    context.changes.push(`replaced nullable: true with a null type at ${pointerText(at)}`);
  }
  return types;
}

/** Merges `allOf` branches that are plain objects into their parent; anything else cannot be lowered. */
function mergeAllOf(node: Json, at: readonly string[], context: Context): Json {
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

function lowerObject(node: Json, out: Json, at: readonly string[], context: Context, depth: number, objectDepth: number): void {
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
    loweredProperties.set(name, lowerNode(properties[name], [...at, 'properties', name], context, depth + 1, objectDepth));
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

function lowerArray(node: Json, out: Json, at: readonly string[], context: Context, depth: number, objectDepth: number): void {
  const items = node['items'];
  if (items === undefined) fail(`the array at ${pointerText(at)} has no items schema`);
  if (Array.isArray(items) || node['prefixItems'] !== undefined) fail(`the array at ${pointerText(at)} is a tuple, which a constrained decoder cannot represent`);
  out['items'] = lowerNode(items, [...at, 'items'], context, depth + 1, objectDepth);
}

/** Copies a constraint the dialect accepts; removes (and lists) one it does not. */
function lowerConstraint(keyword: string, value: unknown, types: readonly string[], out: Json, at: readonly string[], context: Context): void {
  const { dialect, changes } = context;
  const where = (): string => pointerText(at);
  if (keyword === 'format') {
    if (types.includes('string') && typeof value === 'string' && dialect.formats.has(value)) out['format'] = value;
    else changes.push(`removed format ${JSON.stringify(value)} at ${where()}`);
    return;
  }
  if (keyword === 'pattern') {
    if (dialect.constraints.has('pattern') && types.includes('string') && typeof value === 'string' && isPlainPattern(value)) out['pattern'] = value;
    else changes.push(`removed pattern at ${where()}`);
    return;
  }
  if (keyword === 'minItems' && types.includes('array') && typeof value === 'number' && Number.isInteger(value) && value >= 0) {
    if (value <= dialect.minItemsCap) out['minItems'] = value;
    else {
      out['minItems'] = dialect.minItemsCap;
      changes.push(`lowered minItems ${value} to ${dialect.minItemsCap} at ${where()}`);
    }
    return;
  }
  const numeric = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].includes(keyword);
  const applies = numeric ? types.includes('number') || types.includes('integer') : keyword === 'maxItems' ? types.includes('array') : true;
  if (dialect.constraints.has(keyword) && applies && typeof value === 'number' && Number.isFinite(value)) {
    out[keyword] = value;
    return;
  }
  changes.push(`removed ${keyword} at ${where()}`);
}

/**
 * A regular expression every constrained decoder reads the same way: no backreferences,
 * lookaround or word boundaries (Anthropic documents these as unsupported; OpenAI's decoder
 * has no lookaround either). Others are removed and checked by Keel alone.
 */
function isPlainPattern(pattern: string): boolean {
  if (/\\[1-9]|\\k<|\(\?[=!<]|\\[bB]/.test(pattern)) return false;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

function lowerNode(raw: unknown, at: readonly string[], context: Context, depth: number, parentObjectDepth: number): Json {
  if (typeof raw === 'boolean') fail(`the schema at ${pointerText(at)} is ${String(raw)} (any value or none), which a constrained decoder cannot represent`);
  if (!isObject(raw)) fail(`the schema at ${pointerText(at)} is not an object`);
  if (depth > MAX_DEPTH || context.ancestors.has(raw)) fail(`the schema at ${pointerText(at)} nests too deeply or contains itself`);
  context.ancestors.add(raw);
  try {
    return lowerObjectNode(raw, at, context, depth, parentObjectDepth);
  } finally {
    context.ancestors.delete(raw);
  }
}

function lowerObjectNode(raw: Json, at: readonly string[], context: Context, depth: number, parentObjectDepth: number): Json {
  const { changes, stats } = context;
  // Printed only when needed: most nodes have nothing to report.
  const where = (): string => pointerText(at);
  if (depth > 0 && (raw['$defs'] !== undefined || raw['definitions'] !== undefined)) fail(`definitions at ${where()} are not at the root`);
  let node = raw;
  if (node['allOf'] !== undefined) node = mergeAllOf(node, at, context);
  const out: Json = {};
  for (const key of KEPT_ANNOTATIONS) if (typeof node[key] === 'string') out[key] = node[key];

  if (node['$ref'] !== undefined) {
    out['$ref'] = useDefinition(refTarget(node['$ref'], at), at, context);
    for (const key of Object.keys(node)) {
      if (key !== '$ref' && !KEPT_ANNOTATIONS.has(key) && !DROPPED_ANNOTATIONS.has(key)) changes.push(`removed ${key} beside $ref at ${where()}`);
    }
    return out;
  }

  let types = typesOf(node, at, context);
  if (node['enum'] !== undefined) {
    const values = node['enum'];
    if (!Array.isArray(values) || values.length === 0 || !values.every(isPrimitive)) fail(`the enum at ${where()} is not a non-empty list of strings, numbers, booleans or null`);
    out['enum'] = [...values];
    const stringLength = values.reduce((sum: number, value) => sum + (typeof value === 'string' ? value.length : 0), 0);
    stats.enumValues += values.length;
    stats.stringLength += stringLength;
    if (values.length > stats.largestEnum.values) stats.largestEnum = { values: values.length, stringLength };
    types ??= [...new Set(values.map(jsonTypeOf))];
  }
  if (node['const'] !== undefined) {
    const value = node['const'];
    if (!isPrimitive(value)) fail(`the const at ${where()} is not a string, number, boolean or null`);
    out['const'] = value;
    if (typeof value === 'string') stats.stringLength += value.length;
    types ??= [jsonTypeOf(value)];
  }
  const anyOf = node['anyOf'];
  const oneOf = node['oneOf'];
  if (anyOf !== undefined && oneOf !== undefined) fail(`the schema at ${where()} has both anyOf and oneOf`);
  const union = anyOf ?? oneOf;
  if (union !== undefined) {
    const keyword = anyOf === undefined ? 'oneOf' : 'anyOf';
    if (!Array.isArray(union) || union.length === 0) fail(`the ${keyword} at ${where()} is not a non-empty list`);
    out['anyOf'] = union.map((branch, index) => lowerNode(branch, [...at, keyword, String(index)], context, depth + 1, parentObjectDepth));
    stats.unions += 1;
    if (keyword === 'oneOf') changes.push(`replaced oneOf with anyOf at ${where()} (Keel checks that exactly one branch matches)`);
  }
  if (types === undefined && union === undefined) {
    if (node['properties'] !== undefined) types = ['object'];
    else if (node['items'] !== undefined) types = ['array'];
    else fail(`the schema at ${where()} has no type, enum, const or anyOf, so it allows any value, which a constrained decoder cannot represent`);
    changes.push(`added type ${types[0] ?? ''} at ${where()}`);
  }
  if (types !== undefined) {
    if (node['type'] !== undefined || node['nullable'] === true || union === undefined) out['type'] = types.length === 1 ? types[0] : types;
    if (types.length > 1) stats.unions += 1;
    if (types.includes('object')) lowerObject(node, out, at, context, depth, parentObjectDepth + 1);
    if (types.includes('array')) lowerArray(node, out, at, context, depth, parentObjectDepth);
  }

  for (const [key, value] of Object.entries(node)) {
    if (STRUCTURAL.has(key) || KEPT_ANNOTATIONS.has(key) || DROPPED_ANNOTATIONS.has(key)) continue;
    if (key === 'prefixItems') continue;
    lowerConstraint(key, value, types ?? [], out, at, context);
  }
  return out;
}

function collectDefinitions(root: Json, context: Context): void {
  for (const source of ['$defs', 'definitions'] as const) {
    const definitions = root[source];
    if (definitions === undefined) continue;
    if (!isObject(definitions)) fail(`${source} at the root is not an object`);
    for (const [name, raw] of Object.entries(definitions)) {
      if (context.definitions.has(name)) fail(`the definition ${JSON.stringify(name)} is declared in both $defs and definitions`);
      context.definitions.set(name, { raw, source, state: 'pending' });
      context.stats.stringLength += name.length;
    }
  }
}

/**
 * Lowers a full JSON Schema to the subset `dialect` describes: every object closed
 * (`additionalProperties: false`), optional properties made required and nullable where the
 * dialect requires every property, constraints the decoder does not accept removed (each listed
 * in `changes`; Keel keeps enforcing them against the full schema), `oneOf` as `anyOf`,
 * `definitions` as `$defs` (only those used), a root `$ref` inlined and `allOf` of objects
 * merged. The root must be an object. A schema that cannot be lowered (a map with free keys, a
 * tuple, a value of any type, a recursive schema where the dialect has none, a non-local
 * `$ref`, over the dialect's limits) gives the reason instead. Pure: the input is not changed,
 * and a hostile input (a getter that throws, an object containing itself) gives a reason too.
 */
export function lowerJsonSchema(schema: unknown, dialect: DecoderDialect): LoweringOutcome {
  const context: Context = {
    dialect,
    changes: [],
    stats: { properties: 0, optionalProperties: 0, unions: 0, objectDepth: 0, enumValues: 0, largestEnum: { values: 0, stringLength: 0 }, stringLength: 0 },
    definitions: new Map(),
    loweredDefinitions: new Map(),
    ancestors: new Set(),
  };
  try {
    if (!isObject(schema)) fail('the schema is not an object');
    collectDefinitions(schema, context);
    let root: Json = schema;
    let inlinedRoot: string | undefined;
    if (schema['$ref'] !== undefined) {
      const name = refTarget(schema['$ref'], []);
      inlinedRoot = name;
      const definition = name === '#' ? undefined : context.definitions.get(name);
      if (!isObject(definition?.raw)) fail('the root $ref does not name an object definition');
      root = { ...definition.raw };
      for (const key of KEPT_ANNOTATIONS) if (schema[key] !== undefined) root[key] = schema[key];
      context.changes.push(`inlined the root $ref ${JSON.stringify(schema['$ref'])}`);
    } else {
      root = { ...schema };
    }
    delete root['$defs'];
    delete root['definitions'];
    const lowered = lowerNode(root, [], context, 0, 0);
    if (lowered['type'] !== 'object' || lowered['anyOf'] !== undefined) fail('the root is not an object schema (type: "object", no union)');
    if (context.loweredDefinitions.size > 0) lowered['$defs'] = Object.fromEntries(context.loweredDefinitions);
    if ([...context.definitions.values()].some((definition) => definition.state === 'done' && definition.source === 'definitions')) {
      context.changes.push('moved definitions to $defs');
    }
    const unused = [...context.definitions].filter(([name, definition]) => definition.state === 'pending' && name !== inlinedRoot).map(([name]) => name);
    if (unused.length > 0) context.changes.push(`left out unused definitions ${unused.map((name) => JSON.stringify(name)).join(', ')}`);
    const overLimit = dialect.limits(context.stats);
    if (overLimit !== undefined) fail(overLimit);
    return { ok: true, lowered: { schema: lowered, changes: context.changes } };
  } catch (error) {
    if (error instanceof Unlowerable) return { ok: false, reason: error.message };
    return { ok: false, reason: `the schema could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}
