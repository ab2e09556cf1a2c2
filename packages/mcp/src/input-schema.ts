import type { SchemaValidator } from '@keel/reliability';
import { type PatternCheck, patternIssues, takeRiskyPatterns } from './safe-patterns';

/**
 * A server's schema made ready for Keel: `schema` is what Keel validates with (risky patterns
 * taken out), `shown` what the model is shown (the server's schema, patterns included), `checks`
 * the patterns taken out, run on a linear-time engine. Or why the schema cannot be used.
 */
export type PreparedSchema =
  | { readonly ok: true; readonly schema: Record<string, unknown>; readonly shown: Record<string, unknown>; readonly checks: readonly PatternCheck[] }
  | { readonly ok: false; readonly message: string };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a validator answers, settled. */
type SchemaValidationResult<T> = Awaited<ReturnType<SchemaValidator<T>['validate']>>;

const copyOf = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** MCP's default JSON Schema dialect: a tool's schema without `$schema` is read as 2020-12. */
export const MCP_DEFAULT_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Keel's own copy of a server's schema, as JSON data, read in the dialect its root `$schema`
 * declares (draft-07 or 2020-12), else in MCP's default dialect, JSON Schema 2020-12: `schema`
 * (what Keel validates with) carries that `$schema`, so `prefixItems` or `$defs` mean what 2020-12
 * says, and a keyword the dialect does not know, or a `$schema` naming another dialect, is refused
 * when the schema is compiled, never ignored. `shown` (what the model reads) leaves `$schema` out.
 * Risky patterns are taken out to run on RE2 (see `takeRiskyPatterns`). For a tool's input
 * (`root: 'object'`), a root without `type` gets `type: "object"` and a root of any other type is
 * refused (MCP tool arguments are an object). Never throws.
 */
export function prepareServerSchema(schema: unknown, options: { readonly root: 'object' | 'any' }): PreparedSchema {
  if (!isPlainObject(schema)) return { ok: false, message: 'the schema is not a JSON object' };
  let shown: unknown;
  try {
    shown = copyOf(schema);
  } catch {
    return { ok: false, message: 'the schema is not JSON data (a cycle, or too deeply nested)' };
  }
  if (!isPlainObject(shown)) return { ok: false, message: 'the schema is not a JSON object' };
  const dialect = Object.hasOwn(shown, '$schema') ? shown.$schema : MCP_DEFAULT_DIALECT;
  delete shown.$schema;
  if (options.root === 'object') {
    if (shown.type === undefined) shown.type = 'object';
    if (shown.type !== 'object') return { ok: false, message: `the input schema must describe an object (type "object"), got type ${JSON.stringify(shown.type)}` };
  }
  const validated = { $schema: dialect, ...(copyOf(shown) as Record<string, unknown>) };
  const taken = takeRiskyPatterns(validated);
  if ('problem' in taken) return { ok: false, message: taken.problem };
  return { ok: true, schema: validated, shown, checks: taken.checks };
}

/** A tool's input schema made ready for Keel (see {@link prepareServerSchema}). */
export function prepareInputSchema(schema: unknown): PreparedSchema {
  return prepareServerSchema(schema, { root: 'object' });
}

/**
 * A validator of the schema with its risky patterns taken out, that also runs them (on RE2) and
 * shows the model the whole schema: the same answers as the server's schema, in bounded time.
 */
export function withPatternChecks<T>(validator: SchemaValidator<T>, prepared: Extract<PreparedSchema, { ok: true }>): SchemaValidator<T> {
  if (prepared.checks.length === 0) return validator;
  const settle = (value: unknown, result: SchemaValidationResult<T>): SchemaValidationResult<T> => {
    const issues = patternIssues(prepared.checks, result.ok ? result.value : value);
    if (issues.length === 0) return result;
    return { ok: false, issues: result.ok ? issues : [...result.issues, ...issues] };
  };
  return {
    jsonSchema: prepared.shown,
    ...(validator.description === undefined ? {} : { description: validator.description }),
    validate(value) {
      const result = validator.validate(value);
      return result instanceof Promise ? result.then((settled) => settle(value, settled)) : settle(value, result);
    },
  };
}
