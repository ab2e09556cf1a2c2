import { AbortedError } from '@keel/reliability';
import type { Message, ModelResponse } from '@keel/provider';
import { MaxStepsExceededError } from '../../errors/max-steps-exceeded-error';
import { ActionLoopError } from '../../errors/action-loop-error';
import { type AttemptCall, type AttemptOutcome, attemptLoop } from '../attempt/attempt-loop';
import { stepSettings, stepSettingsMade } from '../attempt/gate-settings';
import type { GateSettings, RuleRunView } from '@keel/reliability/internal';
import { runViewOf, turnViewOf } from '../../run-view/run-view-of';
import { resolveFallback } from '../output/output-fallback';
import { outputVerdict } from '../output/output-verdict';
import { showOutput } from '../output/partial-output';
import { abandonPartials } from '../output/shown-answer';
import type { RunConfig } from '../state/run-config';
import type { RunContext } from '../state/run-context';
import type { Answer, RunState, StepOutcome } from '../../contracts/run-state';
import { runRecordOf } from './end';
import { compactedView } from '../../context/compaction';
import { overflowOutcome, passesCompactAt } from './compact-context';
import { type LoopCount, noteLoops } from './step-loops';
import type { RunResult } from '../../contracts/run-result';
import { hiddenTools } from '../../tools/search/tool-search';

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

/** What the run keeps: memory's conversation, then the run's kept messages (a copy: nothing writes to the state). */
export const keptMessages = (state: RunState): readonly Message[] => (state.history === undefined || state.history.length === 0 ? state.messages.slice() : state.history.concat(state.messages));

/** The context a step sends: the kept messages, as compaction sends them once the run has compacted. */
export const keptContext = (state: RunState): readonly Message[] => (state.compaction === undefined ? keptMessages(state) : compactedView(keptMessages(state), state.compaction));

/** The ids of the tool calls the run keeps (memory's conversation included): a step's calls take ids unique beside them. */
function toolCallIdsKept(state: RunState): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const list of [state.history ?? NONE, state.messages]) {
    for (const message of list) if (message.role === 'assistant') for (const part of message.content) if (part.type === 'tool-call') ids.add(part.id);
  }
  return ids;
}

/**
 * The run as rules see it from a step's call (`scope.run`): its finished steps, and the turn
 * being judged. An object with a method rather than a closure: the call holds it while it waits.
 */
class StepRun {
  constructor(
    readonly steps: number,
    private readonly context: RunContext,
    private readonly state: RunState,
    private readonly loops: LoopCount,
  ) {}

  /** The view; the loops the run found before (its earlier steps', and this call's so far) were each a nudge (a stop ends the run). */
  view(response: ModelResponse | undefined): RuleRunView {
    return runViewOf(this.state.steps, this.state.toolCalls, this.context.budgetUsage(), response ? turnViewOf(response, this.context.config.tools) : undefined, this.state.loops + this.loops.count);
  }
}

/** The step's settings with the run as rules see it (from its first step on: an empty run before it). */
function withRun(settings: GateSettings<ModelResponse>, context: RunContext, state: RunState, loops: LoopCount): GateSettings<ModelResponse> {
  return { ...settings, run: new StepRun(state.steps.length, context, state, loops) };
}

/** The judge of a step's answer, one per configuration: a step's call holds it while it waits. */
const answerJudges = new WeakMap<RunConfig, AttemptCall<unknown>['judge']>();

function answerJudge(config: RunConfig): AttemptCall<unknown>['judge'] {
  let judge = answerJudges.get(config);
  if (judge === undefined) answerJudges.set(config, (judge = (response) => outputVerdict(config, response)));
  return judge;
}

type Outcome = StepOutcome<RunResult<unknown>>;

/**
 * The step `ask-model`: begins the next step and makes its call through the attempt loop. A turn
 * that calls tools goes on to `call-tools`; an answer (or a fallback tier's value) to `end`. Not
 * an async function: while the model works, the step holds one reaction to the call's outcome
 * (`answered`, or `overflowed` for a refusal as too long), not a suspended frame of its own.
 * @throws {MaxStepsExceededError} when the run has taken `maxSteps` steps, with the partial result.
 */
export function askModel(context: RunContext, state: RunState): Promise<Outcome> {
  const { config, signal, sink } = context;
  const next = state.next;
  const compacted = next.type === 'ask-model' ? next.compacted : undefined;
  // Checked only where a window is known (declared, or shown by a refusal): a run without one compacts when the vendor refuses a request.
  if (compacted === undefined && (config.context?.window ?? state.compaction?.window) !== undefined && passesCompactAt(context, state, config.context)) return Promise.resolve({ type: 'next', state: { ...state, next: { type: 'compact-context', reason: 'threshold' } } });
  const step = state.step + 1;
  if (step > config.maxSteps) throw new MaxStepsExceededError({ maxSteps: config.maxSteps, partial: runRecordOf(context, state, '', 'other') });
  if (signal?.aborted) throw AbortedError.fromSignal(signal);
  // A step retried after the vendor refused it as too long goes on as the same step.
  const began = compacted === 'overflow' && state.stepBegan ? state.stepBegan : { at: performance.now(), calls: context.ledger.attempts.length };
  if (compacted !== 'overflow') {
    sink?.push({ type: 'step-start', step });
    if (context.listens('step.start')) context.emitBuilt('step.start', { runId: context.runId, step, timestamp: Date.now() });
  }
  const loops: LoopCount = { count: 0 };
  // Read only when the answer calls a tool: an answer alone never scans the conversation.
  let kept: ReadonlySet<string> | undefined;
  let asked: Promise<AttemptOutcome<unknown>>;
  try {
    asked = attemptLoop<unknown>(context, {
      messages: keptContext(state),
      // A nested run's budgets include its parents': its settings are its own, never the agent's cached ones.
      settings: withRun((context.preCheck === config.preCheck ? stepSettingsMade.get(config)?.[step] : undefined) ?? stepSettings(context), context, state, loops),
      judge: answerJudge(config),
      feedbackMessages: answerFeedback,
      fallback: resolveFallback,
      loops,
      keptToolCallIds: () => (kept ??= toolCallIdsKept(state)),
      ...(config.toolSearch === undefined ? {} : { hiddenTools: hiddenTools(config.toolSearch, state.loadedTools) }),
    });
  } catch (error) {
    asked = Promise.reject(error);
  }
  return asked.then(
    (outcome) => answered(context, { ...state, stepBegan: began, loops: state.loops + loops.count }, step, outcome),
    (error: unknown) => {
      try {
        return overflowed(context, { ...state, stepBegan: began }, compacted, error);
      } catch (failure) {
        // The run ends with this error: the loops its call detected count in its journal and `run.end`.
        noteLoops(failure, loops);
        throw failure;
      }
    },
  );
}

/** A call the vendor refused as too long goes on to compaction (see `overflowOutcome`); any other failure fails the step (a loop stop with the partial result). */
function overflowed(context: RunContext, state: RunState, compacted: 'threshold' | 'overflow' | undefined, error: unknown): Outcome {
  const overflow = overflowOutcome(context, state, compacted, error);
  if (overflow) return overflow;
  if (ActionLoopError.isLoopStop(error)) throw new ActionLoopError({ stop: error, partial: runRecordOf(context, state, '', 'other') });
  throw error;
}

/** The step's outcome from its call's: a turn that calls tools goes on to `call-tools`; an answer, or a fallback tier's value, to `end`. */
function answered(context: RunContext, state: RunState, step: number, outcome: AttemptOutcome<unknown>): Outcome {
  const { config, sink } = context;
  if (sink && config.output && outcome.type === 'fallback') abandonPartials(context);
  if (sink && config.output) showOutput(context, outcome);
  if (outcome.type === 'stopped') throw new TypeError(`a step call cannot end as ${outcome.kind}`);
  if (outcome.type === 'fallback') {
    const { value, tier } = outcome.fallback;
    const answer: Answer = { value, provenance: tier, repairs: NONE, coercions: NONE, issues: NONE };
    return { type: 'next', state: { ...state, step, next: { type: 'end', text: JSON.stringify(value), finishReason: 'stop', answer } } };
  }
  const { response, verdict } = outcome;
  const finishReason = response?.finishReason ?? 'error';
  if (response && response.content.some((part) => part.type === 'tool-call')) {
    return { type: 'next', state: { ...state, step, next: { type: 'call-tools', turn: { content: response.content, text: response.text, finishReason } } } };
  }
  // A rule may accept a failed call ('ok'): then there is no value; or invalid output: then its issues come along.
  const accepted = verdict?.status === 'valid' ? verdict : undefined;
  const issues = verdict?.status === 'invalid' ? verdict.failure.issues : (accepted?.issues ?? NONE);
  const parsed = accepted ? accepted.value : verdict?.status === 'invalid' ? verdict.partialValue : undefined;
  // Without a schema the value is the text the result reports, as validation would read it.
  const value = config.output || !response ? parsed : response.text;
  const answer: Answer = { value, provenance: 'model', repairs: accepted?.repairs ?? NONE, coercions: accepted?.coercions ?? NONE, issues };
  return { type: 'next', state: { ...state, step, next: { type: 'end', text: response?.text ?? '', finishReason, answer } } };
}
