import {
  DROPPED_ANNOTATIONS,
  fail,
  JSON_TYPES,
  KEPT_ANNOTATIONS,
  type LoweringContext,
  MAX_DEPTH,
  STRUCTURAL,
  Unlowerable,
} from './lowering-context';
import type { ModelProviderV1 } from '../../spec/model-provider-v1';
import type { DecoderDialect, LoweringOutcome } from './decoder-dialect';
import { lowerConstraint } from './lower-constraint';
import { lowerArray, lowerObject, mergeAllOf } from './lower-object';
import { parseLocalReference } from '@keel/reliability/internal';
import { escapePointer, isObject, type Json, pointerText } from './schema-pointer';

function isPrimitive(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function jsonTypeOf(value: string | number | boolean | null): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A local reference: a definition's name, or `#` (the root). Anything else cannot be lowered. */
function refTarget(ref: unknown, at: readonly string[]): string {
  if (typeof ref !== 'string') fail(`the $ref at ${pointerText(at)} is not a string`);
  const target = parseLocalReference(ref);
  if (target === undefined) fail(`the $ref ${JSON.stringify(ref)} at ${pointerText(at)} is not a local definition (#/$defs/<name>)`);
  return target === '#' ? '#' : target.name;
}

/** Resolves a reference, lowering its definition the first time (and finding cycles). */
function useDefinition(name: string, at: readonly string[], context: LoweringContext): string {
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
function typesOf(node: Json, at: readonly string[], context: LoweringContext): string[] | undefined {
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

function lowerNode(raw: unknown, at: readonly string[], context: LoweringContext, depth: number, parentObjectDepth: number): Json {
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

function lowerObjectNode(raw: Json, at: readonly string[], context: LoweringContext, depth: number, parentObjectDepth: number): Json {
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

function collectDefinitions(root: Json, context: LoweringContext): void {
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
  const context: LoweringContext = {
    dialect,
    changes: [],
    stats: { properties: 0, optionalProperties: 0, unions: 0, objectDepth: 0, enumValues: 0, largestEnum: { values: 0, stringLength: 0 }, stringLength: 0 },
    definitions: new Map(),
    loweredDefinitions: new Map(),
    ancestors: new Set(),
    lowerNode,
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

/**
 * A provider's `lowerSchema` for one decoder dialect: {@link lowerJsonSchema}'s lowered schema,
 * `undefined` where it gives a reason instead. Both purposes (`output`, `tool`) take the same
 * subset: an object root, the same keywords.
 */
export function schemaLowerer(dialect: DecoderDialect): NonNullable<ModelProviderV1['lowerSchema']> {
  return (schema) => {
    const outcome = lowerJsonSchema(schema, dialect);
    return outcome.ok ? outcome.lowered : undefined;
  };
}
