import { type ErrorKind, type JsonRepair, ReliabilityFailFastError, type ValidationFailure, type ValidationIssue } from '@keel/reliability';
import type { Provenance } from '../agent/run-result';
import type { Message } from '../model/message';
import { textOf } from '../model/message';
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
  readonly issues: readonly ValidationIssue[];
}

/** The step's answer failed for good (or a rule chose `fallback`): the fallback tiers may stand in. */
interface FallbackRequest {
  readonly failure: ValidationFailure | undefined;
  readonly reason: string;
  /** The gate's stop, rethrown when no tier produces a value. */
  readonly error: unknown;
}

/** Failures of the model's answer (not of the call) that the fallback tiers may stand in for. */
const fallbackKinds = new Set<ErrorKind>(['schema-fail', 'parse-fail', 'truncated', 'refusal']);

const NONE: readonly never[] = Object.freeze([]);

/**
 * Makes the step's gated call. The gate ends in one of three plain values: an answer, a fallback
 * request (a rule decided `fallback`, or the gate stopped on a failure of the answer), or an error
 * that is not the answer's fault. Fallback requests all go through {@link fallbackOutcome}.
 */
export async function stepOutcome(state: RunState, kept: readonly Message[]): Promise<StepOutcome> {
  const settled = await gatedStep(state, kept);
  if ('reason' in settled) return fallbackOutcome(state, settled);
  return settled;
}

async function gatedStep(state: RunState, kept: readonly Message[]): Promise<StepOutcome | FallbackRequest> {
  try {
    const result = await gatedCall(state, {
      messages: kept,
      purpose: 'step',
      fallback: (_scope, failure): Promise<FallbackRequest> =>
        Promise.resolve({ failure, reason: 'a rule chose fallback', error: new Error('A rule chose fallback but no fallback tier produced a valid value') }),
    });
    if (result.via === 'fallback') return result.value as FallbackRequest;
    const response = result.response;
    // A rule may accept a failed call ('ok'): then there is no checked output.
    const checked = result.value as CheckedOutput | undefined;
    const value = state.config.output || !response ? checked?.value : textOf(response);
    return { response, value, provenance: 'model', repairs: checked?.repairs ?? NONE, issues: checked?.issues ?? result.acceptedIssues ?? NONE };
  } catch (error) {
    // A rule or validator that crashed is a bug to surface, never a reason to hand out a degraded answer.
    if (ReliabilityFailFastError.isInstance(error) && error.phase !== 'rule-error' && error.kind !== 'validator-error' && fallbackKinds.has(error.errorKind)) {
      return { failure: error.lastValidationFailure, reason: `${error.kind}: ${error.message}`, error };
    }
    throw error;
  }
}

/** The one path to the fallback tiers: a tier's value, or the request's error when none applies. */
async function fallbackOutcome(state: RunState, request: FallbackRequest): Promise<StepOutcome> {
  const tier = await resolveFallback(state, request.failure, request.reason);
  if (!tier) throw request.error;
  return { response: undefined, value: tier.value, provenance: tier.tier, repairs: NONE, issues: NONE };
}
