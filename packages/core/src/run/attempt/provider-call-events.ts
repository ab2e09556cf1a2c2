import { classifyError, reduceError } from '@keel/reliability/internal';
import type { ModelTarget } from '../../contracts/agent-options';
import type { BuiltPayload, CallPurpose } from '../../events/agent-events';
import type { Message, ModelRequest, ModelResponse } from '@keel/provider';
import type { OutputMode } from '../output/output-mode';
import type { RunContext } from '../state/run-context';

/** One provider call of an attempt. */
export interface ProviderCall {
  readonly target: ModelTarget;
  readonly request: ModelRequest;
  readonly attempt: number;
  readonly purpose: CallPurpose;
  /** The tool call a re-ask is for (`purpose: 'tool-re-ask'`), named in the call's events. */
  readonly toolCallId?: string;
  /** Output mode `tool`: the answer tool's name; its call is the final answer. */
  readonly answerTool?: string;
  /** A step call: the ids of the tool calls the run keeps (read only when the answer calls a tool); the answer's calls take ids unique beside them. */
  readonly keptToolCallIds?: () => ReadonlySet<string>;
  /** How the final answer is asked for, on a step call of an agent with an output schema. */
  readonly outputMode?: OutputMode;
}

function toolChoiceLabel(request: ModelRequest): string {
  const choice = request.toolChoice;
  if (!choice) return request.tools?.length ? 'auto' : 'none';
  return choice.type === 'tool' ? `tool:${choice.name}` : choice.type;
}

/** The fields naming a call in its events (merged with `Object.assign`: an object spread in a payload is slow in V8). */
const callNames = ({ attempt, purpose, target, toolCallId }: ProviderCall) =>
  toolCallId === undefined ? { attempt, purpose, provider: target.provider.name, model: target.model } : { attempt, purpose, provider: target.provider.name, model: target.model, toolCallId };

/** Ephemeral messages come last in a request (after the kept context): count them from the end. */
const countEphemeral = (messages: readonly Message[]) => {
  let count = 0;
  for (let index = messages.length - 1; index >= 0 && messages[index]?.ephemeral === true; index--) count++;
  return count;
};

/** `strictToolCount` of `model.request`, when any tool is strict. */
function strictToolCount(request: ModelRequest): number | undefined {
  let count = 0;
  for (const tool of request.tools ?? []) if (tool.strict === true) count++;
  return count === 0 ? undefined : count;
}

/** Reports `model.request` (call it when `listens('model.request')`). */
export function reportRequest(state: RunContext, call: ProviderCall): void {
  const { target, request, attempt, purpose } = call;
  const payload: BuiltPayload<'model.request'> = {
    runId: state.runId, step: state.step, timestamp: Date.now(), attempt, purpose, provider: target.provider.name, model: target.model,
    messageCount: request.messages.length,
    ephemeralCount: countEphemeral(request.messages),
    toolCount: request.tools?.length ?? 0,
    toolChoice: toolChoiceLabel(request),
  };
  if (call.toolCallId !== undefined) payload.toolCallId = call.toolCallId;
  if (call.outputMode !== undefined && state.config.output) payload.outputMode = call.outputMode;
  const strict = strictToolCount(request);
  if (strict !== undefined) payload.strictToolCount = strict;
  state.emitBuilt('model.request', payload);
}

/** Reports `model.content` and `model.response`, each when something listens to it; `started` is when the call began. */
export function reportResponse(state: RunContext, call: ProviderCall, started: number, response: ModelResponse): void {
  const { target, request, attempt, purpose } = call;
  if (state.listens('model.content'))
    state.emit('model.content', {
      ...callNames(call),
      ...(request.system === undefined ? {} : { system: request.system }),
      input: JSON.stringify(request.messages),
      output: JSON.stringify(response.content),
    });
  if (!state.listens('model.response')) return;
  const priced = state.ledger.price(target.model, response.usage);
  const payload: BuiltPayload<'model.response'> = {
    runId: state.runId, step: state.step, timestamp: Date.now(), attempt, purpose, provider: target.provider.name, model: target.model,
    finishReason: response.finishReason,
    latencyMs: performance.now() - started,
    toolCalls: response.content.reduce((count, part) => count + (part.type === 'tool-call' ? 1 : 0), 0),
    inputTokens: priced.inputTokens,
    outputTokens: priced.outputTokens,
    cacheReadTokens: priced.cacheReadTokens,
    cacheWriteTokens: priced.cacheWriteTokens,
  };
  if (call.toolCallId !== undefined) payload.toolCallId = call.toolCallId;
  if (priced.costUsd !== undefined) payload.costUsd = priced.costUsd;
  state.emitBuilt('model.response', payload);
}

/** Reports `model.error`: the failed call's error, classified; `started` is when the call began. */
export function reportError(state: RunContext, call: ProviderCall, started: number, error: unknown): void {
  const { errorKind, retryAfterMs } = classifyError(error);
  const { name, message } = reduceError(error);
  state.emit('model.error', Object.assign(callNames(call), {
    errorKind: state.signal?.aborted ? 'aborted' : errorKind,
    errorName: name,
    message,
    latencyMs: performance.now() - started,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  }));
}
