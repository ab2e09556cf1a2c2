import type { ValidationIssue } from './issue';

/** The outcome of validating a value. */
export type SchemaValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** A schema turned into one validation interface, whatever library defined it. */
export interface SchemaValidator<T> {
  /** JSON Schema of the accepted input, sent to providers as a tool's or an output's schema. */
  readonly jsonSchema: Readonly<Record<string, unknown>>;
  /** A description of the schema, when it has one. */
  readonly description?: string;
  /** Validates a value; issues are normalised. Synchronous for TypeBox/JSON Schema. */
  validate(value: unknown): SchemaValidationResult<T> | Promise<SchemaValidationResult<T>>;
  /**
   * `true` when `validate` runs no code of the user's (TypeBox/JSON Schema): synchronous and
   * without effects, so Keel may call it more than once for one value. Absent for Standard Schema
   * and `{ parse }`, whose code runs once per value.
   */
  readonly pure?: true;
}
