import type { GateVerdict } from '@keel/reliability';
import { type GateFeedback, TRUNCATION_MARKER } from '@keel/reliability/internal';
import type { Message, ModelResponse, ToolCallPart } from '@keel/provider';
import { type ArgumentsCheck, checkArguments } from '../../tools/check-arguments';
import type { ToolGuard } from '../../tools/guard';
import type { ReAskResult } from '../../tools/run-tool-call';
import type { AnyTool } from '../../tools/tool';
import { TOOL_RE_ASK_OUTCOMES, TOOL_RE_ASK_RULE, toolArgumentRules } from '../../tools/tool-argument-rules';
import { errorOutput } from '../../tools/tool-result';
import { attemptLoop } from './attempt-loop';
import { firstReAskFeedback, reAskSettings } from './gate-settings';
import { argumentsPatch, cutArguments } from './patch-and-continue';
import type { RunContext } from '../state/run-context';

/** The feedback of a re-ask, as the model reads it: its call echoed (capped), then an error result. */
function reAskMessages(call: ToolCallPart, feedback: GateFeedback): readonly Message[] {
  let echoed: unknown = feedback.previousOutput;
  // Cut to the echo budget, or never JSON: echoed as text (a cut can leave valid JSON, never to be read as the arguments).
  if (!feedback.previousOutput.includes(TRUNCATION_MARKER)) {
    try {
      echoed = JSON.parse(feedback.previousOutput);
    } catch {
      // Not JSON: as text.
    }
  }
  return [
    { role: 'assistant', content: [{ type: 'tool-call', id: call.id, name: call.name, arguments: echoed }], ephemeral: true },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: call.id, toolName: call.name, output: errorOutput('validation-failed', feedback.text), isError: true }], ephemeral: true },
  ];
}

/**
 * Re-asks the model for one tool call's arguments through the run's attempt loop: the tool
 * forced, each corrected call checked as the first was (exact parse, schema, coercion, guards on
 * the value that runs), bounded by the tool's budget, the feedback ephemeral. Ends with the last
 * check and the outcome; a failure of the calls themselves (after their own retries) fails the run.
 */
export async function reAskArguments(state: RunContext, kept: readonly Message[], tool: AnyTool, guards: readonly ToolGuard[], call: ToolCallPart, invalid: Extract<ArgumentsCheck, { status: 'invalid' }>, hidden?: ReadonlySet<string>): Promise<ReAskResult> {
  const budget = tool.retries ?? state.config.toolRetries;
  const failure = invalid.failure;
  if (budget === 0) return { check: invalid, reAsks: 0, outcome: 'exhausted' };
  const cut = cutArguments(state.config.output?.options, failure);
  const settings = reAskSettings(state, { id: call.id, name: call.name }, [...state.config.reAskRules.before, ...toolArgumentRules(budget, failure.rawOutput), ...state.config.reAskRules.after]);
  let last: ArgumentsCheck = invalid;
  let announced: GateFeedback | undefined;
  let reAsks = 0;
  const judge = (response: ModelResponse): GateVerdict<unknown> | Promise<GateVerdict<unknown>> => {
    const corrected = response.content.find((part): part is ToolCallPart => part.type === 'tool-call' && part.name === call.name);
    if (!corrected) return { status: 'error', errorKind: 'no-tool-call', message: `the model did not call '${call.name}' again`, rawOutput: response.text };
    const verdictOf = (check: ArgumentsCheck): GateVerdict<unknown> => {
      last = check;
      switch (check.status) {
        case 'valid':
          return { status: 'valid', value: check.value, rawOutput: JSON.stringify(check.args), purpose: 'tool-re-ask', coercions: check.coercions };
        case 'invalid':
          // The arguments as parsed: what a patch re-ask patches.
          return check.failure.stage === 'schema-validate' ? { status: 'invalid', failure: check.failure, rejectedValue: check.args } : { status: 'invalid', failure: check.failure };
        case 'rejected':
          return { status: 'error', errorKind: 'guard-rejected', message: check.rejection.message };
        case 'validator-error':
          throw new Error(check.message);
      }
    };
    const checked = checkArguments(tool, guards, corrected);
    return checked instanceof Promise ? checked.then(verdictOf) : verdictOf(checked);
  };
  const outcome = await attemptLoop(state, {
    messages: kept,
    settings,
    judge,
    toolChoice: { type: 'tool', name: call.name },
    // Deferred tools not loaded stay out of the re-ask's request, as they were out of the step's; the re-asked tool is sent.
    ...(hidden === undefined ? {} : { hiddenTools: new Set([...hidden].filter((name) => name !== call.name)) }),
    // Arguments cut at the token limit are continued first; any other failure is fed back.
    ...(cut === undefined ? { initial: { failure, feedback: firstReAskFeedback(settings, failure, argumentsPatch(settings.patch, failure)) } } : { continueFrom: cut }),
    outcomeKinds: TOOL_RE_ASK_OUTCOMES,
    feedbackMessages: (feedback) => {
      // One event per re-ask sent (a transient retry of the same re-ask carries the same feedback).
      if (feedback !== announced) {
        announced = feedback;
        state.emit('tool.re-ask', { toolCallId: call.id, toolName: call.name, rule: TOOL_RE_ASK_RULE, reAsk: ++reAsks, feedback: feedback.text });
      }
      return reAskMessages(call, feedback);
    },
  });
  switch (outcome.type) {
    case 'accepted':
      return { check: last, reAsks: outcome.attempts, outcome: 'corrected' };
    case 'stopped':
      return { check: last, reAsks: outcome.attempts, outcome: outcome.kind === 'validator-error' ? 'exhausted' : (outcome.kind as ReAskResult['outcome']) };
    case 'fallback':
      // Never: a re-ask has no fallback value, so a `fallback` decision stops the run.
      throw new TypeError('a tool-argument re-ask cannot fall back');
  }
}
