import { keelError } from './keel-error';

/**
 * A schema given to Keel is none of the kinds it accepts: a JSON Schema that passes the
 * meta-schema with no unknown keywords (TypeBox schemas are JSON Schema), a Standard Schema (Zod 4,
 * Valibot, ArkType...), or an object with `parse()`. Thrown when the schema is first used — for an
 * agent, at `build()` / `tool()`. Not retryable.
 */
export class InvalidSchemaError extends keelError('InvalidSchemaError', { retryable: false }) {}
