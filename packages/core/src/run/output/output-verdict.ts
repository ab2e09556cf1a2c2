import type { GateVerdict } from '@keel/reliability';
import { checkOutput, type OutputCheck } from '@keel/reliability/internal';
import type { ModelResponse } from '../../model/model-provider-v1';
import { withRejectedValue } from '../attempt/patch-and-continue';
import type { RunConfig } from '../state/run-config';


/**
 * Judges a model turn. Tool-call turns are never validated. With an output schema, a final turn
 * is extracted and validated; a truncated answer (`length`) and a refusal get their own kinds
 * rather than being fed back as schema errors (a truncated answer is continued, see
 * `OutputOptions.continuation`; an invalid one keeps its parsed value for a patch re-ask). Everything the step needs later travels in the
 * verdict itself.
 */
export function outputVerdict(config: RunConfig, response: ModelResponse): GateVerdict<unknown> | Promise<GateVerdict<unknown>> {
  const output = config.output;
  if (hasToolCall(response)) {
    const duplicate = duplicateCallId(response);
    // Two calls with one id would both run, and the next request would answer one id twice.
    if (duplicate !== undefined) return { status: 'error', errorKind: 'bad-response', message: `two tool calls in one turn have the id ${JSON.stringify(duplicate)}`, rawOutput: response.text };
    // What a rule rejecting the turn echoes: its text and its calls, as data.
    return { status: 'accept', value: undefined, rawOutput: turnText(response), purpose: 'tool-call-turn' };
  }
  if (!output) return { status: 'accept', value: response.text, rawOutput: response.text };
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
  return check instanceof Promise ? check.then((settled) => withRejectedValue(verdictOf(settled, response), settled)) : withRejectedValue(verdictOf(check, response), check);
}

function verdictOf(check: OutputCheck<unknown>, response: ModelResponse): GateVerdict<unknown> {
  // The parsed value is kept for a rule that accepts invalid output with `ok`.
  if (!check.ok) return { status: 'invalid', failure: check.failure, partialValue: check.value };
  return { status: 'accept', value: check.value, rawOutput: response.text, repairs: check.repairs, coercions: check.coercions, issues: check.issues };
}

/** A tool-call turn as text: what it said, then each call as JSON. */
function turnText(response: ModelResponse): string {
  const calls = response.content.flatMap((part) => (part.type === 'tool-call' ? [JSON.stringify({ call: part.name, arguments: part.arguments })] : []));
  return [response.text, ...calls].filter((line) => line.length > 0).join('\n');
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
