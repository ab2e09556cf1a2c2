import { type GateVerdict, type JsonRepair, type ValidationIssue } from '@keel/reliability';
import { type Coercion } from '@keel/reliability/internal';
import { checkOutput, type OutputCheck } from '@keel/reliability/internal';
import type { ModelResponse } from '../model/model-provider-v1';
import type { RunConfig } from './run-config';

/** A model turn as the output check judged it: the value, and how it was obtained. */
export interface CheckedOutput {
  /** The validated value (with an output schema), the text (without), `undefined` for a tool-call turn. */
  readonly value: unknown;
  /** Local repairs applied before parsing. */
  readonly repairs: readonly JsonRepair[];
  /** Schema-guided coercions applied to the value. */
  readonly coercions: readonly Coercion[];
  /** Issues the value still has (`strict: false`, or a rule that accepted invalid output). */
  readonly issues: readonly ValidationIssue[];
}

const NONE: readonly never[] = Object.freeze([]);

/**
 * Judges a model turn. Tool-call turns are never validated. With an output schema, a final turn
 * is extracted and validated; a truncated answer (`length`) and a refusal get their own kinds
 * rather than being fed back as schema errors. Everything the step needs later travels in the
 * verdict itself.
 */
export function outputVerdict(config: RunConfig, response: ModelResponse): GateVerdict<CheckedOutput> | Promise<GateVerdict<CheckedOutput>> {
  const output = config.output;
  if (hasToolCall(response)) {
    const duplicate = duplicateCallId(response);
    // Two calls with one id would both run, and the next request would answer one id twice.
    if (duplicate !== undefined) return { status: 'error', errorKind: 'bad-response', message: `two tool calls in one turn have the id ${JSON.stringify(duplicate)}`, rawOutput: response.text };
    return { status: 'accept', value: { value: undefined, repairs: NONE, coercions: NONE, issues: NONE }, rawOutput: response.text, purpose: 'tool-call-turn' };
  }
  if (!output) return { status: 'accept', value: { value: response.text, repairs: NONE, coercions: NONE, issues: NONE }, rawOutput: response.text };
  if (response.finishReason === 'length') {
    return { status: 'error', errorKind: 'truncated', message: 'The answer was cut off at the token limit (finish reason length)', rawOutput: response.text };
  }
  if (response.finishReason === 'refusal' || response.finishReason === 'content-filter') {
    return { status: 'error', errorKind: 'refusal', message: `The model declined to answer (finish reason ${response.finishReason})`, rawOutput: response.text };
  }
  const check = checkOutput(response.text, output.validator, {
    repair: output.options.repair ?? true,
    coerce: output.options.coerce ?? true,
    strict: output.options.strict ?? true,
  });
  return check instanceof Promise ? check.then((settled) => verdictOf(settled, response)) : verdictOf(check, response);
}

function verdictOf(check: OutputCheck<unknown>, response: ModelResponse): GateVerdict<CheckedOutput> {
  if (!check.ok) {
    // Kept for a rule that accepts invalid output with `ok`: the parsed value and its issues.
    return { status: 'invalid', failure: check.failure, partialValue: { value: check.value, repairs: NONE, coercions: NONE, issues: check.failure.issues } satisfies CheckedOutput };
  }
  return { status: 'accept', value: { value: check.value, repairs: check.repairs, coercions: check.coercions, issues: check.issues }, rawOutput: response.text };
}

/** The first tool-call id used twice in a turn, if any. */
function duplicateCallId(response: ModelResponse): string | undefined {
  const seen = new Set<string>();
  for (const part of response.content) {
    if (part.type !== 'tool-call') continue;
    if (seen.has(part.id)) return part.id;
    seen.add(part.id);
  }
  return undefined;
}

function hasToolCall(response: ModelResponse): boolean {
  for (const part of response.content) if (part.type === 'tool-call') return true;
  return false;
}
