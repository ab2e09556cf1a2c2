import { type DecoderDialect, schemaLowerer } from '@keel/provider';

/**
 * OpenAI's strict structured outputs (`response_format: { type: 'json_schema', strict: true }`
 * and function tools with `strict: true`), as documented in "Structured Outputs › Supported
 * schemas" (platform.openai.com/docs/guides/structured-outputs) and enforced by the vendor SDK's
 * `toStrictJsonSchema` (`openai` 6.x, `lib/transform`):
 *
 * - the root is an object, not `anyOf`; every object has `additionalProperties: false` ("In
 *   context=(), 'additionalProperties' is required to be supplied and to be false") and lists
 *   every property in `required` ("'required' is required to be supplied and to be an array
 *   including every key in properties"), so an optional property is emulated as required and
 *   nullable;
 * - supported: string, number, boolean, integer, object, array, enum, `anyOf`, local `$ref` /
 *   `$defs` (recursion included), `const`; string `pattern` and `format` (date-time, time, date,
 *   duration, email, hostname, ipv4, ipv6, uuid); number `minimum`, `maximum`,
 *   `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`; array `minItems`, `maxItems`;
 * - not supported: `allOf`, `not`, `if`/`then`/`else`, `dependent*`, `patternProperties`,
 *   `propertyNames`, `min`/`maxProperties`, `unevaluated*`, `contains`, `uniqueItems`, `prefixItems`,
 *   `minLength`, `maxLength`;
 * - limits: 5000 properties, 10 levels of nesting, 1000 enum values, 120,000 characters of
 *   property names, definition names, enum and const values, 15,000 characters in one enum of
 *   more than 250 values.
 */
export const openAIDialect: DecoderDialect = {
  label: 'OpenAI',
  allRequired: true,
  recursion: true,
  formats: new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']),
  constraints: new Set(['pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'maxItems']),
  minItemsCap: Number.MAX_SAFE_INTEGER,
  limits: (stats) => {
    if (stats.properties > openAILimits.properties) return `the schema has ${stats.properties} properties; OpenAI accepts at most ${openAILimits.properties}`;
    if (stats.objectDepth > openAILimits.nesting) return `the schema nests objects ${stats.objectDepth} deep; OpenAI accepts at most ${openAILimits.nesting}`;
    if (stats.enumValues > openAILimits.enumValues) return `the schema has ${stats.enumValues} enum values; OpenAI accepts at most ${openAILimits.enumValues}`;
    if (stats.stringLength > openAILimits.stringLength) return `the schema's names and values have ${stats.stringLength} characters; OpenAI accepts at most ${openAILimits.stringLength}`;
    if (stats.largestEnum.values > 250 && stats.largestEnum.stringLength > openAILimits.largeEnumStringLength) {
      return `an enum of ${stats.largestEnum.values} values has ${stats.largestEnum.stringLength} characters; OpenAI accepts at most ${openAILimits.largeEnumStringLength} in an enum of more than 250 values`;
    }
    return undefined;
  },
};

/** OpenAI's documented limits on one strict schema. */
export const openAILimits = { properties: 5000, nesting: 10, enumValues: 1000, stringLength: 120_000, largeEnumStringLength: 15_000 } as const;

/**
 * Lowers a full JSON Schema to what OpenAI's strict mode accepts, for `response_format`
 * (`purpose: 'output'`) or a strict function's `parameters` (`'tool'`): every object closed,
 * every property required (an optional one made nullable: `type: [t, 'null']`, or `anyOf` with
 * `{ type: 'null' }`; Keel reads the model's `null` as absent), unsupported keywords (`minLength`,
 * `maxLength`, `uniqueItems`, unsupported formats, …) removed and listed in `changes` (Keel still
 * enforces them), `oneOf` as `anyOf`, `definitions` as `$defs`, `allOf` of objects merged.
 * `undefined` when it cannot be lowered: a root that is not an object (or is a union), a map with
 * free keys, a tuple, a value of any type, a non-local `$ref`, or over OpenAI's limits. Pure.
 */
export const lowerOpenAISchema = schemaLowerer(openAIDialect);
