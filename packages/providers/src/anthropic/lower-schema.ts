import { type DecoderDialect, schemaLowerer } from '@keel/provider';

/**
 * Anthropic's structured outputs (`output_config.format` and `strict: true` tools), as documented
 * in "Structured outputs › JSON Schema limitations" (platform.claude.com/docs/en/build-with-claude/structured-outputs)
 * and applied by the vendor SDK's own `transformJSONSchema` (`@anthropic-ai/sdk` 1.12,
 * `lib/transform-json-schema`):
 *
 * - supported: every basic type, `enum` of strings, numbers, booleans and null, `const`, `anyOf`,
 *   `allOf`, local `$ref` / `$defs`, `required`, `additionalProperties: false` (required on every
 *   object: "For 'object' type, 'additionalProperties' must be explicitly set to false"), string
 *   `format` of date-time, time, date, duration, email, hostname, uri, ipv4, ipv6 and uuid,
 *   `minItems` of 0 or 1, simple `pattern`s (no backreferences, lookaround or word boundaries);
 * - not supported: recursive schemas, numeric bounds (`minimum`, `maximum`, `exclusive*`,
 *   `multipleOf`: "For 'integer' type, property 'minimum' is not supported"), string lengths,
 *   other array constraints (`maxItems`, `uniqueItems`, `minItems` above 1), open objects;
 * - limits, over all strict schemas of one request: 24 optional properties ("Schemas contains too
 *   many optional parameters (25) … (limit: 24)"), 16 parameters with union types (`anyOf` or
 *   type lists), 20 strict tools. One schema over a limit cannot be lowered; several schemas that
 *   pass alone but not together are refused by the API with a 400 that Keel reports as
 *   `schemaRejected: 'both'`.
 */
export const anthropicDialect: DecoderDialect = {
  label: 'Anthropic',
  allRequired: false,
  recursion: false,
  formats: new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']),
  constraints: new Set(['pattern']),
  minItemsCap: 1,
  limits: (stats) => {
    if (stats.optionalProperties > anthropicLimits.optionalProperties) {
      return `the schema has ${stats.optionalProperties} optional properties; Anthropic accepts at most ${anthropicLimits.optionalProperties} in a request`;
    }
    if (stats.unions > anthropicLimits.unions) return `the schema has ${stats.unions} unions (anyOf or type lists); Anthropic accepts at most ${anthropicLimits.unions} in a request`;
    return undefined;
  },
};

/** Anthropic's documented limits on the strict schemas of one request. */
export const anthropicLimits = { optionalProperties: 24, unions: 16, strictTools: 20 } as const;

/**
 * Lowers a full JSON Schema to what Anthropic's constrained decoder accepts, for
 * `output_config.format` (`purpose: 'output'`) or a strict tool's `input_schema` (`'tool'`):
 * every object closed, unsupported constraints (numeric bounds, string lengths, `maxItems`,
 * unsupported formats and patterns) removed and listed in `changes` (Keel still enforces them),
 * `minItems` above 1 lowered to 1, `oneOf` as `anyOf`, `definitions` as `$defs`. Optional
 * properties stay optional. `undefined` when it cannot be lowered: a root that is not an object,
 * a recursive schema, a map with free keys, a tuple, a value of any type, a non-local `$ref`,
 * more than 24 optional properties or 16 unions. Pure.
 */
export const lowerAnthropicSchema = schemaLowerer(anthropicDialect);
