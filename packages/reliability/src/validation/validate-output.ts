import { ValidationFailure } from '../errors/validation-failure';
import { extractJson, type JsonRepair } from '../json/extract-json';
import { escapeControl, formatPath } from './issue';

/** Longest validator or parser message kept in a failure's message, in characters. */
const MAX_MESSAGE_CHARS = 300;

/** A message that may quote model output, as one bounded line. */
const oneLine = (message: string) => escapeControl(message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message);
import type { SchemaValidationResult, SchemaValidator } from './schema-validator';

/** Settings of {@link validateOutput}. */
export interface ValidateOutputOptions {
  /** Apply local JSON extraction and repair before parsing. Default true. */
  readonly repair?: boolean;
  /** Validate against the schema. `false` returns the parsed value with its issues. Default true. */
  readonly strict?: boolean;
}

/** Outcome of {@link validateOutput}. */
export type OutputCheck<T> =
  | {
      readonly ok: true;
      readonly value: T;
      /** Local repairs applied before parsing (empty when the text was clean JSON). */
      readonly repairs: readonly JsonRepair[];
      /** With `strict: false`, the issues the value has (empty when valid). */
      readonly issues: ValidationFailure['issues'];
    }
  | { readonly ok: false; readonly failure: ValidationFailure; readonly value?: unknown };

/**
 * Turns model text into a validated value: local JSON extraction/repair (zero model calls), then
 * the schema. A failure is a {@link ValidationFailure} at stage `json-parse` or `schema-validate`.
 */
export async function validateOutput<T>(text: string, validator: SchemaValidator<T>, options: ValidateOutputOptions = {}): Promise<OutputCheck<T>> {
  return checkOutput(text, validator, options);
}

/**
 * {@link validateOutput} without the promise when the validator is synchronous (TypeBox/JSON
 * Schema, most Standard Schemas): for hot paths that should not pay a microtask per check.
 */
export function checkOutput<T>(text: string, validator: SchemaValidator<T>, options: ValidateOutputOptions = {}): OutputCheck<T> | Promise<OutputCheck<T>> {
  const extracted = extractJson(text, { repair: options.repair ?? true });
  if (!extracted.ok) {
    return {
      ok: false,
      failure: new ValidationFailure({
        stage: 'json-parse',
        message: oneLine(extracted.message),
        rawOutput: text,
        issues: [{ path: [], pathText: formatPath([]), kind: 'other', message: extracted.message }],
      }),
    };
  }
  const result = validator.validate(extracted.value);
  return result instanceof Promise
    ? result.then((settled) => settle(text, extracted.value, extracted.repairs, settled, options))
    : settle(text, extracted.value, extracted.repairs, result, options);
}

function settle<T>(text: string, value: unknown, repairs: readonly JsonRepair[], result: SchemaValidationResult<T>, options: ValidateOutputOptions): OutputCheck<T> {
  if (result.ok) return { ok: true, value: result.value, repairs, issues: [] };
  if (options.strict === false) {
    return { ok: true, value: value as T, repairs, issues: result.issues };
  }
  const first = result.issues[0];
  const count = result.issues.length;
  return {
    ok: false,
    value,
    failure: new ValidationFailure({
      stage: 'schema-validate',
      message: `${count} validation issue${count === 1 ? '' : 's'}${first ? `, first at '${first.pathText}': ${oneLine(first.message)}` : ''}`,
      rawOutput: text,
      issues: result.issues,
      ...(first ? { pathText: first.pathText } : {}),
    }),
  };
}
