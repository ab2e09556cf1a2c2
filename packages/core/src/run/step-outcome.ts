import { type ErrorKind, type JsonRepair, ReliabilityFailFastError, type ValidationFailure, type ValidationIssue } from '@keel/reliability';
import { type Coercion } from '@keel/reliability/internal';
import type { Provenance } from '../agent/run-result';
import type { Message } from '../model/message';
import type { ModelResponse } from '../model/model-provider-v1';
import { gatedCall } from './gated-call';
import { resolveFallback } from './output-fallback';
import type { CheckedOutput } from './output-verdict';
import type { RunState } from './run-state';

/** One step's final outcome: the model's answer or a fallback tier. */
export interface StepOutcome {
  readonly response: ModelResponse | undefined;
  readonly value: unknown;
  readonly provenance: Provenance;
  readonly repairs: readonly JsonRepair[];
  readonly coercions: readonly Coercion[];
  readonly issues: readonly ValidationIssue[];
}

/** Failures of the model's answer (not of the call) that the fallback tiers may stand in for. */
const fallbackKinds = new Set<ErrorKind>(['schema-fail', 'parse-fail', 'truncated', 'refusal']);

const NONE: readonly never[] = Object.freeze([]);

/**
 * Makes the step's gated call and returns its outcome as a plain value: the model's answer, or a
 * fallback tier's value. One function, {@link fallbackOutcome}, produces every fallback outcome;
 * it is reached when a rule decides `fallback` (inside the gate, which stops with kind
 * `fallback-failed` when no tier applies) and when the gate stops on a failure of the answer
 * itself (then the stop is rethrown when no tier applies).
 */
export async function stepOutcome(state: RunState, kept: readonly Message[]): Promise<StepOutcome> {
  try {
    const result = await gatedCall(state, {
      messages: kept,
      purpose: 'step',
      fallback: async (_scope, failure) => {
        const outcome = await fallbackOutcome(state, failure, 'a rule chose fallback');
        if (!outcome) throw new Error('A rule chose fallback but no fallback tier produced a valid value');
        return outcome;
      },
    });
    if (result.via === 'fallback') return result.value as StepOutcome;
    const response = result.response;
    // A rule may accept a failed call ('ok'): then there is no checked output.
    const checked = result.value as CheckedOutput | undefined;
    // Without a schema the value is the text the result reports, as validation would read it.
    const value = state.config.output || !response ? checked?.value : response.text;
    return { response, value, provenance: 'model', repairs: checked?.repairs ?? NONE, coercions: checked?.coercions ?? NONE, issues: checked?.issues ?? result.acceptedIssues ?? NONE };
  } catch (error) {
    // A rule or validator that crashed is a bug to surface, never a reason to hand out a degraded answer.
    if (ReliabilityFailFastError.isInstance(error) && error.phase !== 'rule-error' && error.kind !== 'validator-error' && fallbackKinds.has(error.errorKind)) {
      const outcome = await fallbackOutcome(state, error.lastValidationFailure, `${error.kind}: ${error.message}`);
      if (outcome) return outcome;
    }
    throw error;
  }
}

/** The fallback tiers' outcome for the step, or `undefined` when no tier applies. */
async function fallbackOutcome(state: RunState, failure: ValidationFailure | undefined, reason: string): Promise<StepOutcome | undefined> {
  const tier = await resolveFallback(state, failure, reason);
  return tier && { response: undefined, value: tier.value, provenance: tier.tier, repairs: NONE, coercions: NONE, issues: NONE };
}
