/**
 * The rules the vendors' APIs apply to strict schemas (Anthropic's `output_config.format` and
 * `strict: true` tools, OpenAI's strict `response_format` and strict functions), with the messages
 * their 400s carry, so the local wire servers refuse what the real APIs refuse. The messages are
 * the vendors' as seen in real error bodies ("For 'object' type, 'additionalProperties' must be
 * explicitly set to false", "Schemas contains too many optional parameters (25)…", "Invalid
 * schema for response_format 'x': In context=(), 'additionalProperties' is required to be
 * supplied and to be false.").
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(node: Json): string[] {
  const type = node['type'];
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** Calls `visit` on every subschema with its path, definitions included. */
function walk(schema: unknown, visit: (node: Json, path: readonly string[]) => void, path: readonly string[] = []): void {
  if (!isObject(schema)) return;
  visit(schema, path);
  for (const keyword of ['properties', '$defs', 'definitions'] as const) {
    const children = schema[keyword];
    if (isObject(children)) for (const [name, child] of Object.entries(children)) walk(child, visit, [...path, keyword, name]);
  }
  if (isObject(schema['items'])) walk(schema['items'], visit, [...path, 'items']);
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) branches.forEach((branch, index) => walk(branch, visit, [...path, keyword, String(index)]));
  }
}

/** True when the local `$ref`s of `schema` form a cycle. */
function isRecursive(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const definitions: Json = { ...(isObject(schema['definitions']) ? schema['definitions'] : {}), ...(isObject(schema['$defs']) ? schema['$defs'] : {}) };
  const refsOf = (node: unknown): string[] => {
    const refs: string[] = [];
    walk(node, (child) => {
      const ref = child['$ref'];
      if (typeof ref === 'string') refs.push(ref === '#' ? '#' : (ref.split('/').at(-1) ?? ''));
    });
    return refs;
  };
  if (refsOf({ ...schema, $defs: undefined, definitions: undefined }).includes('#')) return true;
  const visiting = new Set<string>();
  const done = new Set<string>();
  const cyclic = (name: string): boolean => {
    if (name === '#') return true;
    if (visiting.has(name)) return true;
    if (done.has(name)) return false;
    visiting.add(name);
    const found = refsOf(definitions[name]).some(cyclic);
    visiting.delete(name);
    done.add(name);
    return found;
  };
  return Object.keys(definitions).some(cyclic);
}

const anthropicKeywords = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'minItems', 'enum', 'const', 'anyOf', 'allOf', '$ref', '$defs', 'definitions', 'description', 'title', 'default', 'format', 'pattern', '$schema']);
const anthropicFormats = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

/** Counts Anthropic's grammar limits are about, for one schema. */
export interface GrammarCounts {
  readonly optionalParameters: number;
  readonly unionParameters: number;
}

/** What Anthropic's limits count in one strict schema: optional properties, and unions (`anyOf`, type lists). */
export function anthropicGrammarCounts(schema: unknown): GrammarCounts {
  let optionalParameters = 0;
  let unionParameters = 0;
  walk(schema, (node) => {
    if (isObject(node['properties'])) {
      const required = Array.isArray(node['required']) ? node['required'] : [];
      optionalParameters += Object.keys(node['properties']).filter((name) => !required.includes(name)).length;
    }
    if (Array.isArray(node['anyOf']) || typesOf(node).length > 1) unionParameters += 1;
  });
  return { optionalParameters, unionParameters };
}

/**
 * The message Anthropic's API answers for one strict schema it refuses, prefixed with `where`
 * (`output_config.format.schema`, `tools.0.custom`), or `undefined` when the schema is accepted.
 */
export function anthropicStrictSchemaProblem(schema: unknown, where: string): string | undefined {
  if (!isObject(schema)) return `${where}: JSON schema is invalid`;
  if (isRecursive(schema)) return `${where}: Recursive schemas are not supported`;
  let problem: string | undefined;
  walk(schema, (node) => {
    if (problem !== undefined) return;
    const types = typesOf(node);
    const type = types.find((entry) => entry !== 'null') ?? types[0] ?? 'unknown';
    // An enum or const alone is refused too: the API wants a type beside it.
    if (types.length === 0 && ['anyOf', 'allOf', '$ref'].every((keyword) => node[keyword] === undefined)) {
      problem = `${where}: Schema must have a 'type', 'anyOf', 'oneOf', or 'allOf' field`;
      return;
    }
    if (types.includes('object') && node['additionalProperties'] !== false) {
      problem = `${where}: For 'object' type, 'additionalProperties' must be explicitly set to false`;
      return;
    }
    const unsupported = Object.keys(node).filter((keyword) => !anthropicKeywords.has(keyword));
    if (unsupported.length === 1) problem = `${where}: For '${type}' type, property '${unsupported[0] ?? ''}' is not supported`;
    else if (unsupported.length > 1) problem = `${where}: For '${type}' type, properties ${unsupported.join(', ')} are not supported`;
    else if (node['minItems'] !== undefined && node['minItems'] !== 0 && node['minItems'] !== 1) problem = `${where}: For 'array' type, 'minItems' values other than 0 or 1 are not supported`;
    else if (node['format'] !== undefined && !anthropicFormats.has(String(node['format']))) problem = `${where}: For 'string' type, format '${String(node['format'])}' is not supported`;
    else if (typeof node['pattern'] === 'string' && /\\[1-9]|\(\?[=!<]|\\[bB]/.test(node['pattern'])) problem = `${where}: For 'string' type, the regex in 'pattern' is not supported`;
    else if (Array.isArray(node['enum']) && !node['enum'].every((value) => value === null || typeof value !== 'object')) problem = `${where}: Enum values must be strings, numbers, booleans or null`;
  });
  return problem;
}

/** Anthropic's limits over every strict schema of one request, with its messages. */
export function anthropicGrammarLimitProblem(counts: readonly GrammarCounts[], strictTools: number): string | undefined {
  const optional = counts.reduce((sum, count) => sum + count.optionalParameters, 0);
  const unions = counts.reduce((sum, count) => sum + count.unionParameters, 0);
  if (strictTools > 20) return `Too many strict tools (${strictTools}). The maximum number of strict tools supported is 20.`;
  if (optional > 24) {
    return `Schemas contains too many optional parameters (${optional}), which would make grammar compilation inefficient. Reduce the number of optional parameters in your tool schemas (limit: 24).`;
  }
  if (unions > 16) {
    return `Schemas contains too many parameters with union types (${unions} parameters with type arrays or anyOf). Reduce the number of parameters with union types (limit: 16 parameters with unions).`;
  }
  return undefined;
}

const openAIKeywords = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', '$ref', '$defs', 'definitions', 'description', 'title', 'default', 'format', 'pattern',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', '$schema',
]);
const openAIFormats = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** A path as OpenAI prints it: a Python tuple, `()`, `('properties',)`, `('properties', 'name')`. */
function pythonTuple(path: readonly string[]): string {
  if (path.length === 0) return '()';
  const items = path.map((segment) => `'${segment}'`);
  return path.length === 1 ? `(${items[0] ?? ''},)` : `(${items.join(', ')})`;
}

/**
 * The message OpenAI's API answers for a strict schema it refuses (`subject` is
 * `response_format 'answer'` or `function 'transfer'`), or `undefined` when it is accepted.
 */
export function openAIStrictSchemaProblem(schema: unknown, subject: string): string | undefined {
  const prefix = (path: readonly string[]) => `Invalid schema for ${subject}: In context=${pythonTuple(path)}, `;
  if (!isObject(schema)) return `${prefix([])}schema must be a JSON Schema of 'type: "object"', got 'type: "${typeof schema}"'.`;
  if (schema['type'] !== 'object' || schema['anyOf'] !== undefined) {
    return `${prefix([])}schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema['type'] ?? 'None')}"'.`;
  }
  let problem: string | undefined;
  walk(schema, (node, path) => {
    if (problem !== undefined) return;
    const unsupported = Object.keys(node).find((keyword) => !openAIKeywords.has(keyword));
    if (unsupported !== undefined) {
      problem = `${prefix(path)}'${unsupported}' is not permitted.`;
      return;
    }
    const types = typesOf(node);
    if (types.length === 0 && ['anyOf', '$ref', 'enum', 'const'].every((keyword) => node[keyword] === undefined)) {
      problem = `${prefix(path)}schema must have a 'type' key.`;
      return;
    }
    if (types.includes('object')) {
      if (node['additionalProperties'] !== false) {
        problem = `${prefix(path)}'additionalProperties' is required to be supplied and to be false.`;
        return;
      }
      const required = Array.isArray(node['required']) ? node['required'] : undefined;
      const missing = Object.keys(isObject(node['properties']) ? node['properties'] : {}).filter((name) => !(required ?? []).includes(name));
      if (required === undefined || missing.length > 0) {
        problem = `${prefix(path)}'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0] ?? ''}'.`;
        return;
      }
    }
    if (types.includes('array') && node['items'] === undefined) problem = `${prefix(path)}'items' is required to be supplied for type 'array'.`;
    else if (node['format'] !== undefined && !openAIFormats.has(String(node['format']))) problem = `${prefix(path)}'${String(node['format'])}' is not a valid format.`;
  });
  return problem;
}
