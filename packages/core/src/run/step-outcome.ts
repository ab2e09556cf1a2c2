import type { JsonRepair, ValidationIssue } from '@keel/reliability';
import type { Coercion } from '@keel/reliability/internal';
import type { Provenance } from '../agent/run-result';
import type { Message } from '../model/message';
import type { ModelResponse } from '../model/model-provider-v1';
import { attemptLoop } from './attempt-loop';
import { stepSettings } from './gate-settings';
import { resolveFallback } from './output-fallback';
import { outputVerdict } from './output-verdict';
import type { RunState } from './run-state';
import { showOutput } from './partial-output';

/** One step's final outcome: the model's answer or a fallback tier. */
export interface StepOutcome {
  readonly response: ModelResponse | undefined;
  readonly value: unknown;
  readonly provenance: Provenance;
  readonly repairs: readonly JsonRepair[];
  readonly coercions: readonly Coercion[];
  readonly issues: readonly ValidationIssue[];
}

const NONE: readonly never[] = Object.freeze([]);

/** The feedback of a final answer, as the model reads it: its rejected output, then what was wrong. */
const answerFeedback = (feedback: { readonly previousOutput: string; readonly text: string }): readonly Message[] =>
  // An empty answer is not echoed: vendors refuse an assistant turn with empty text.
  feedback.previousOutput.length > 0
    ? [
        { role: 'assistant', content: [{ type: 'text', text: feedback.previousOutput }], ephemeral: true },
        { role: 'user', content: feedback.text, ephemeral: true },
      ]
    : [{ role: 'user', content: feedback.text, ephemeral: true }];

/**
 * Makes the step's call through the attempt loop and returns its outcome as a plain value: the
 * model's answer, or a fallback tier's value when the policy decided `fallback`.
 */
export async function stepOutcome(state: RunState, kept: readonly Message[]): Promise<StepOutcome> {
  const outcome = await attemptLoop<unknown>(state, {
    messages: kept,
    settings: stepSettings(state),
    judge: (response) => outputVerdict(state.config, response),
    feedbackMessages: answerFeedback,
    fallback: (failure, reason) => resolveFallback(state, failure, reason),
  });
  if (state.sink && state.config.output) showOutput(state, outcome);
  switch (outcome.type) {
    case 'fallback':
      return { response: undefined, value: outcome.fallback.value, provenance: outcome.fallback.tier, repairs: NONE, coercions: NONE, issues: NONE };
    case 'stopped':
      throw new TypeError(`a step call cannot end as ${outcome.kind}`);
    case 'accepted': {
      const { response, verdict } = outcome;
      // A rule may accept a failed call ('ok'): then there is no value; or invalid output: then its issues come along.
      const accepted = verdict?.status === 'accept' ? verdict : undefined;
      const issues = verdict?.status === 'invalid' ? verdict.failure.issues : (accepted?.issues ?? NONE);
      const parsed = accepted ? accepted.value : verdict?.status === 'invalid' ? verdict.partialValue : undefined;
      // Without a schema the value is the text the result reports, as validation would read it.
      const value = state.config.output || !response ? parsed : response.text;
      return { response, value, provenance: 'model', repairs: accepted?.repairs ?? NONE, coercions: accepted?.coercions ?? NONE, issues };
    }
  }
}
