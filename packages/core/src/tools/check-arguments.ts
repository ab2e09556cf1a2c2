import { ValidationFailure, type ValidationIssue } from '@keel/reliability';
import { type Coercion, coerceToSchema, formatPath, isPromiseLike, parseExact, reduceError, withShapes } from '@keel/reliability/internal';
import type { ToolCallPart } from '@keel/provider';
import { type GuardRejection, runGuards, type ToolGuard } from './guard';
import type { AnyTool } from './tool';

/** What checking one input of a tool call found. */
export type ArgumentsCheck =
  /** Valid (after coercion, when it applied) and let through by every guard: `value` is what `execute` receives. */
  | { readonly status: 'valid'; readonly args: unknown; readonly value: unknown; readonly coercions: readonly Coercion[] }
  /** Not valid: the failure feeds the re-ask. */
  | { readonly status: 'invalid'; readonly args: unknown; readonly failure: ValidationFailure }
  /** A guard refused the value that would run (or the arguments as given, when they are not valid). */
  | { readonly status: 'rejected'; readonly args: unknown; readonly rejection: GuardRejection }
  /** The tool's validator threw: a bug, never re-asked. */
  | { readonly status: 'validator-error'; readonly args: unknown; readonly message: string };

const NONE: readonly never[] = Object.freeze([]);

/** The arguments' text as the model wrote it, when the provider gave text (raw, or unparsed). */
function writtenText(call: ToolCallPart): string | undefined {
  if (typeof call.argumentsText === 'string') return call.argumentsText;
  return typeof call.arguments === 'string' ? call.arguments : undefined;
}

/**
 * Checks one input of a tool call, the step's or a re-ask's: the exact parse of the arguments'
 * text (a property given twice or a number a double cannot hold is a failure, never a changed
 * value), the schema, schema-guided coercion when it makes the value valid, then the guards on
 * exactly the value `execute` will receive. Invalid arguments are guarded as given, so a guard
 * stops a dangerous call without a re-ask. Synchronous unless the validator is.
 */
export function checkArguments(tool: AnyTool, guards: readonly ToolGuard[], call: ToolCallPart): ArgumentsCheck | Promise<ArgumentsCheck> {
  // A tool that takes its arguments unvalidated receives them as the provider gave them.
  if (!tool.validate) return guarded(guards, call.name, call.arguments, { status: 'valid', args: call.arguments, value: call.arguments, coercions: NONE });
  const written = writtenText(call);
  let args: unknown = call.arguments ?? {};
  // Text is read exactly; a value the provider already parsed is taken as it is (nothing left to read).
  if (written !== undefined) {
    const parsed = parseExact(written);
    if (!parsed.ok) {
      const failure = new ValidationFailure({
        stage: 'json-parse',
        message: parsed.message,
        rawOutput: written,
        issues: [{ path: [], pathText: formatPath([]), kind: 'other', message: parsed.message }],
        ...(parsed.defect === undefined ? {} : { defect: parsed.defect }),
      });
      return guarded(guards, call.name, written, { status: 'invalid', args: written, failure });
    }
    args = parsed.value;
  }
  const text = () => written ?? JSON.stringify(args) ?? '';
  const validate = (value: unknown, then: (result: Awaited<ReturnType<AnyTool['validator']['validate']>>) => ArgumentsCheck | Promise<ArgumentsCheck>) => {
    let result: ReturnType<AnyTool['validator']['validate']>;
    try {
      result = tool.validator.validate(value);
    } catch (error) {
      return { status: 'validator-error' as const, args, message: reduceError(error).message };
    }
    return isPromiseLike(result)
      ? Promise.resolve(result).then(then, (error: unknown) => ({ status: 'validator-error' as const, args, message: reduceError(error).message }))
      : then(result);
  };
  return validate(args, (first) => {
    if (first.ok) return guarded(guards, call.name, first.value, { status: 'valid', args, value: first.value, coercions: NONE });
    const invalid = (issues: readonly ValidationIssue[]): ArgumentsCheck => {
      const shaped = withShapes(issues, tool.validator.jsonSchema);
      const count = shaped.length;
      const head = shaped[0];
      const failure = new ValidationFailure({
        stage: 'schema-validate',
        message: `${count} validation issue${count === 1 ? '' : 's'}${head ? `, first at '${head.pathText}'` : ''}`,
        rawOutput: text(),
        issues: shaped,
        ...(head ? { pathText: head.pathText } : {}),
      });
      return guarded(guards, call.name, args, { status: 'invalid', args, failure });
    };
    if (!tool.coerce) return invalid(first.issues);
    // A unique, lossless fix the schema allows saves the re-ask; the guards and the tool see the coerced value.
    const coerced = coerceToSchema(args, tool.validator.jsonSchema);
    if (coerced.coercions.length === 0) return invalid(first.issues);
    return validate(coerced.value, (again) =>
      again.ok ? guarded(guards, call.name, again.value, { status: 'valid', args: coerced.value, value: again.value, coercions: coerced.coercions }) : invalid(first.issues),
    );
  });
}

/** The check, unless a guard refuses `guardedValue`: the value `execute` would receive, or the arguments as given when invalid. */
function guarded(guards: readonly ToolGuard[], name: string, guardedValue: unknown, check: ArgumentsCheck): ArgumentsCheck {
  if (guards.length === 0) return check;
  const rejection = runGuards(guards, name, guardedValue);
  return rejection ? { status: 'rejected', args: check.args, rejection } : check;
}
