import type { TSchema } from '@sinclair/typebox';
import { toValidator } from '../validation/to-validator';
import { checkOutput, type OutputCheck } from '../validation/validate-output';

/** Checks a reply synchronously (every schema here is JSON Schema). */
export function check(text: string, schema: TSchema | Record<string, unknown>): OutputCheck<unknown> {
  const result = checkOutput(text, toValidator(schema as TSchema));
  if (result instanceof Promise) throw new Error('a JSON Schema validator is synchronous');
  return result;
}

/** The accepted value, or the failure's defect (or stage) when refused. */
export function outcome(text: string, schema: TSchema | Record<string, unknown>): unknown {
  const result = check(text, schema);
  return result.ok ? { value: result.value } : { refused: result.failure.defect ?? result.failure.stage };
}
