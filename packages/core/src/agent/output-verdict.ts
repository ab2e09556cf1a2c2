import { checkOutput, type GateVerdict, type JsonRepair, type OutputCheck, type ValidationFailure, type ValidationIssue } from '@keel/reliability';
import type { ModelResponse } from '../model/model-provider-v1';
import type { AgentConfig } from './agent-config';

/** What the final-output check remembers across attempts of one step. */
export interface OutputMemo {
  repairs: readonly JsonRepair[];
  issues: readonly ValidationIssue[];
  /** The latest validation failure of the step, for fallback tiers. */
  lastFailure: ValidationFailure | undefined;
}

/**
 * Judges a model turn. Tool-call turns are never validated. With an output schema, a final turn
 * is extracted and validated; a truncated answer (`length`) and a refusal get their own kinds
 * rather than being fed back as schema errors.
 */
export function outputVerdict(config: AgentConfig, response: ModelResponse, memo: OutputMemo): GateVerdict<unknown> | Promise<GateVerdict<unknown>> {
  const output = config.output;
  if (hasToolCall(response)) return { status: 'accept', value: undefined, rawOutput: response.text };
  if (!output) return { status: 'accept', value: response.text, rawOutput: response.text };
  if (response.finishReason === 'length') {
    return { status: 'error', errorKind: 'truncated', message: 'The answer was cut off at the token limit (finish reason length)', rawOutput: response.text };
  }
  if (response.finishReason === 'refusal' || response.finishReason === 'content-filter') {
    return { status: 'error', errorKind: 'refusal', message: `The model declined to answer (finish reason ${response.finishReason})`, rawOutput: response.text };
  }
  const check = checkOutput(response.text, output.validator, { repair: output.options.repair ?? true, strict: output.options.strict ?? true });
  return check instanceof Promise ? check.then((settled) => verdictOf(settled, response, memo)) : verdictOf(check, response, memo);
}

function verdictOf(check: OutputCheck<unknown>, response: ModelResponse, memo: OutputMemo): GateVerdict<unknown> {
  if (!check.ok) {
    memo.lastFailure = check.failure;
    return { status: 'invalid', failure: check.failure, partialValue: check.value };
  }
  memo.repairs = check.repairs;
  memo.issues = check.issues;
  return { status: 'accept', value: check.value, rawOutput: response.text };
}

function hasToolCall(response: ModelResponse): boolean {
  for (const part of response.content) if (part.type === 'tool-call') return true;
  return false;
}
