import { escapePointer, type LoweredSchema, parseLocalReference } from '@keel/provider';

/**
 * The keywords `@ai-sdk/google` sends on to Gemini (its `convertJSONSchemaToOpenAPISchema`); every
 * other keyword is dropped by the package before the request is made.
 */
const SENT = new Set(['type', 'description', 'required', 'format', 'enum', 'const', 'properties', 'items', 'allOf', 'anyOf', 'oneOf', 'minLength']);
/** Keywords that constrain nothing: dropped without a change line. */
const ANNOTATIONS = new Set(['title', '$schema', '$id', '$comment', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', 'definitions', '$defs', '$ref']);

type Schema = Readonly<Record<string, unknown>>;

/** Why a schema cannot be lowered: the package would refuse it (every call a `bad-request`). */
class CannotLower extends Error {}

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The enum's type as Gemini takes it, mirroring the package: one primitive type the schema's `type` allows. */
function enumTypeOf(values: readonly unknown[], type: unknown): string | undefined {
  if (values.length === 0) return undefined;
  const allows = (name: string) => type === undefined || type === name || (Array.isArray(type) && type.includes(name));
  if (allows('string') && values.every((value) => typeof value === 'string')) return 'string';
  if ((allows('number') || allows('integer')) && values.every((value) => typeof value === 'number' && Number.isFinite(value))) {
    if (allows('number') || values.every((value) => Number.isInteger(value))) return 'number';
  }
  if (allows('boolean') && values.every((value) => typeof value === 'boolean')) return 'boolean';
  return undefined;
}

interface Context {
  readonly definitions: Schema | undefined;
  readonly dollarDefinitions: Schema | undefined;
  readonly resolving: ReadonlySet<string>;
  readonly changes: string[];
}

function resolveReference(reference: string, context: Context): { key: string; definition: unknown } {
  const target = parseLocalReference(reference);
  const definitions = target === undefined || target === '#' ? undefined : target.source === '$defs' ? context.dollarDefinitions : context.definitions;
  if (target === undefined || target === '#' || definitions === undefined || !Object.hasOwn(definitions, target.name)) throw new CannotLower(`unsupported reference ${reference}`);
  return { key: `#/${target.source}/${target.name}`, definition: definitions[target.name] };
}

function lower(schema: unknown, pointer: string, context: Context): unknown {
  if (schema === true) {
    context.changes.push(`a schema of true at ${pointer || '/'} is sent as {}`);
    return {};
  }
  if (!isObject(schema)) throw new CannotLower(`a schema that is not an object at ${pointer || '/'}`);
  if (typeof schema.$ref === 'string') {
    const { key, definition } = resolveReference(schema.$ref, context);
    if (context.resolving.has(key)) throw new CannotLower(`recursive reference ${schema.$ref}`);
    const { $ref: _reference, ...siblings } = schema;
    const resolved = definition === true ? siblings : isObject(definition) ? { ...definition, ...siblings } : undefined;
    if (resolved === undefined) throw new CannotLower(`reference ${schema.$ref} to a schema of false`);
    return lower(resolved, pointer, { ...context, resolving: new Set([...context.resolving, key]) });
  }
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (!SENT.has(keyword)) {
      if (!ANNOTATIONS.has(keyword)) context.changes.push(`removed ${keyword} at ${pointer || '/'}`);
      continue;
    }
    switch (keyword) {
      case 'properties': {
        if (!isObject(value)) throw new CannotLower(`properties that are not an object at ${pointer || '/'}`);
        const properties: Record<string, unknown> = {};
        for (const [name, property] of Object.entries(value)) properties[name] = lower(property, `${pointer}/properties/${escapePointer(name)}`, context);
        out.properties = properties;
        break;
      }
      case 'items':
        out.items = Array.isArray(value) ? value.map((item, index) => lower(item, `${pointer}/items/${index}`, context)) : lower(value, `${pointer}/items`, context);
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        if (!Array.isArray(value)) throw new CannotLower(`${keyword} that is not a list at ${pointer || '/'}`);
        out[keyword] = value.map((item, index) => lower(item, `${pointer}/${keyword}/${index}`, context));
        break;
      default:
        out[keyword] = value;
    }
  }
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  if (values !== undefined) {
    const nonNull = values.filter((value) => value !== null);
    if (nonNull.length > 0 && enumTypeOf(nonNull, schema.type) === undefined) throw new CannotLower(`an enum of mixed or unsupported values at ${pointer || '/'}`);
  }
  return out;
}

/**
 * Lowers a JSON Schema to what Gemini's decoder enforces through `@ai-sdk/google` (which sends an
 * OpenAPI 3.0 subset: type, description, required, format, enum / const, properties, items,
 * allOf / anyOf / oneOf, minLength). References to `#/$defs/…` and `#/definitions/…` are inlined
 * as the package inlines them; every other constraining keyword (additionalProperties, maxLength,
 * pattern, minimum, maxItems, ...) is removed and named in `changes`: Keel still validates it.
 * Returns `undefined` for a schema the package would refuse (a recursive or non-local reference,
 * an enum of mixed types), so Keel uses another output mode instead of failing every call.
 */
export function lowerGeminiSchema(schema: Readonly<Record<string, unknown>>): LoweredSchema | undefined {
  const changes: string[] = [];
  try {
    const context: Context = {
      definitions: isObject(schema.definitions) ? schema.definitions : undefined,
      dollarDefinitions: isObject(schema.$defs) ? schema.$defs : undefined,
      resolving: new Set(),
      changes,
    };
    return { schema: lower(schema, '', context) as Readonly<Record<string, unknown>>, changes };
  } catch (error) {
    if (error instanceof CannotLower) return undefined;
    throw error;
  }
}
