import { BadResponseError, classifyError, isPromiseLike, raceSignal, reduceError } from '@keel/reliability/internal';
import { checkResponse, read } from './check-response';
import { IncompleteStreamError } from '../../errors/incomplete-stream-error';
import { StreamInterruptedError } from '../../errors/stream-interrupted-error';
import type { CallPurpose } from '../../events/agent-events';
import type { Message } from '../../model/message';
import type { ModelRequest, ModelResponse, ModelStreamPart } from '../../model/model-provider-v1';
import type { ModelTarget } from '../../agent/agent-options';
import type { RunContext } from '../state/run-context';
import type { WrappedCall } from '../../shared/call-wrapper';
import type { OutputMode } from '../output/output-mode';
import { answerTurn } from '../output/answer-turn';
import { addPartialText, finishPartials, resetPartials, stopPartials } from '../output/partial-output';

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

/** The call as a call wrapper sees it. */
const modelCall = (state: RunContext, { attempt, toolCallId }: ProviderCall): WrappedCall =>
  toolCallId === undefined ? { type: 'model', runId: state.runId, step: state.step, attempt } : { type: 'model', runId: state.runId, step: state.step, attempt, toolCallId };

/** Ephemeral messages come last in a request (after the kept context): count them from the end. */
const countEphemeral = (messages: readonly Message[]) => {
  let count = 0;
  for (let index = messages.length - 1; index >= 0 && messages[index]?.ephemeral === true; index--) count++;
  return count;
};

/**
 * Calls the provider once, with `model.request` before and `model.response` or `model.error`
 * after. Streams when the run is streaming and the provider can.
 */
export async function callProvider(state: RunContext, call: ProviderCall): Promise<ModelResponse> {
  const { target, request, attempt, purpose } = call;
  if (state.listens('model.request')) state.emit('model.request', Object.assign(callNames(call), {
    messageCount: request.messages.length,
    ephemeralCount: countEphemeral(request.messages),
    toolCount: request.tools?.length ?? 0,
    toolChoice: toolChoiceLabel(request),
    ...(call.outputMode === undefined || !state.config.output ? {} : { outputMode: call.outputMode }),
    ...strictToolCount(request),
  }));
  // Latency is reported only in events: skip the clock when nobody listens.
  const timed = state.listens('model.response') || state.listens('model.error');
  const started = timed ? performance.now() : 0;
  state.shownText = false;
  let response: ModelResponse;
  try {
    const stream = state.sink && purpose === 'step' ? target.provider.stream?.bind(target.provider) : undefined;
    const options = state.signal ? { signal: state.signal } : {};
    const invoke = stream ? () => consumeStream(state, stream(request, options), attempt, call.answerTool) : () => (state.signal ? raceSignal(target.provider.generate(request, options), state.signal) : target.provider.generate(request, options));
    const { wrapCall } = state.config;
    const answered: unknown = await (wrapCall ? raceSignal(wrapCall(modelCall(state, call), invoke), state.signal) : invoke());
    // Checked and copied (see checkResponse) before anything reads it, whatever a wrapper returned.
    response = checkResponse(answered);
    // Tool mode: a call of the answer tool is the final answer, its arguments the answer's text.
    if (call.answerTool !== undefined) response = answerTurn(response, call.answerTool);
  } catch (thrown) {
    // Throwing `undefined` or `null` breaks the spec like a missing response does.
    const error = thrown === undefined || thrown === null ? new BadResponseError({ message: `the provider threw ${String(thrown)}` }) : thrown;
    const { errorKind, retryAfterMs } = classifyError(error);
    const { name, message } = reduceError(error);
    state.emit('model.error', Object.assign(callNames(call), {
      errorKind: state.signal?.aborted ? 'aborted' : errorKind,
      errorName: name,
      message,
      latencyMs: performance.now() - started,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    }));
    throw error;
  }
  if (state.listens('model.content'))
    state.emit('model.content', {
      ...callNames(call),
      ...(request.system === undefined ? {} : { system: request.system }),
      input: JSON.stringify(request.messages),
      output: JSON.stringify(response.content),
    });
  if (!state.listens('model.response')) return response;
  const priced = state.ledger.price(target.model, response.usage);
  state.emit('model.response', Object.assign(callNames(call), {
    finishReason: response.finishReason,
    latencyMs: performance.now() - started,
    toolCalls: response.content.reduce((count, part) => count + (part.type === 'tool-call' ? 1 : 0), 0),
    inputTokens: priced.inputTokens,
    outputTokens: priced.outputTokens,
    cacheReadTokens: priced.cacheReadTokens,
    cacheWriteTokens: priced.cacheWriteTokens,
    ...(priced.costUsd === undefined ? {} : { costUsd: priced.costUsd }),
  }));
  return response;
}

/** `strictToolCount` of `model.request`, when any tool is strict. */
function strictToolCount(request: ModelRequest): { strictToolCount?: number } {
  let count = 0;
  for (const tool of request.tools ?? []) if (tool.strict === true) count++;
  return count === 0 ? {} : { strictToolCount: count };
}

/**
 * Forwards a provider stream to the run's sink and returns the final response; parts after
 * `finish` are never read, and the stream is closed once Keel stops reading it. In pass-through
 * mode a stream that fails after text was shown is reported as not retryable (`errorKind`
 * `unknown`): the reader already saw part of it, so a silent retry would splice two answers.
 */
async function consumeStream(state: RunContext, parts: AsyncIterable<ModelStreamPart>, attempt: number, answerTool: string | undefined): Promise<ModelResponse> {
  const sink = state.sink;
  const step = state.step;
  const passText = sink?.mode === 'pass-through' || !state.config.output;
  const open = (parts as Partial<AsyncIterable<ModelStreamPart>> | null | undefined)?.[Symbol.asyncIterator];
  if (typeof open !== 'function') throw new BadResponseError({ message: 'stream() returned something that is not an async iterable' });
  const iterator = open.call(parts);
  let shown = false;
  resetPartials(state);
  // Tool mode: the ids of answer-tool calls, whose argument text is the answer being written.
  const answerIds = new Set<string>();
  try {
    for (;;) {
      // Each read is raced against the abort signal, so a stream that ignores it cannot hold the run.
      const next: unknown = await raceSignal(iterator.next(), state.signal);
      if (typeof next !== 'object' || next === null) throw new BadResponseError({ message: `the stream's iterator returned ${next === null ? 'null' : typeof next}` });
      if (read(next, 'done', 'a stream read')) throw new IncompleteStreamError();
      const part = read(next, 'value', 'a stream read');
      if (typeof part !== 'object' || part === null) throw new BadResponseError({ message: `a stream part is ${part === null ? 'null' : typeof part}` });
      // Each field is read once, guarded: a getter or Proxy part is a broken response, not a crash.
      const type = read(part, 'type', 'a stream part');
      if (type === 'finish') {
        finishPartials(state, attempt);
        return checkResponse(read(part, 'response', 'the finish part'));
      }
      // A delta is only forwarded with the fields its type promises; the final response is checked whole.
      if (type === 'text-delta' && passText) {
        const text = read(part, 'text', 'a text delta');
        if (typeof text !== 'string') continue;
        shown = true;
        state.shownText = true;
        sink?.push({ type: 'text-delta', step, attempt, text });
        if (answerTool === undefined) addPartialText(state, attempt, text);
      } else if (type === 'text-delta') {
        const text = read(part, 'text', 'a text delta');
        if (typeof text === 'string' && answerTool === undefined) addPartialText(state, attempt, text);
      } else if (type === 'tool-call-start') {
        const id = read(part, 'id', 'a tool call start');
        const name = read(part, 'name', 'a tool call start');
        if (typeof id !== 'string' || typeof name !== 'string') continue;
        if (name === answerTool && answerIds.size === 0) answerIds.add(id);
        else {
          stopPartials(state);
          sink?.push({ type: 'tool-call-delta', step, id, name, argumentsDelta: '' });
        }
      } else if (type === 'tool-call-delta') {
        const id = read(part, 'id', 'a tool call delta');
        const argumentsDelta = read(part, 'argumentsDelta', 'a tool call delta');
        if (typeof id !== 'string' || typeof argumentsDelta !== 'string') continue;
        if (!answerIds.has(id)) sink?.push({ type: 'tool-call-delta', step, id, argumentsDelta });
        else {
          // The answer's text: shown as text where text flows, read for partial values.
          if (passText) {
            shown = true;
            state.shownText = true;
            sink?.push({ type: 'text-delta', step, attempt, text: argumentsDelta });
          }
          addPartialText(state, attempt, argumentsDelta);
        }
      }
    }
  } catch (error) {
    if (!shown || state.signal?.aborted) throw error;
    throw new StreamInterruptedError({ cause: error });
  } finally {
    // After `finish`, a broken part or an abort, nothing more is read: the stream is let go of.
    closeStream(iterator);
  }
}

/**
 * Lets go of a provider stream Keel stops reading, so the provider can close its connection (an
 * async generator runs its `finally` blocks). Never waited for, and nothing it throws or rejects
 * with reaches the run.
 */
function closeStream(iterator: AsyncIterator<unknown>): void {
  try {
    const closing: unknown = iterator.return?.();
    if (isPromiseLike(closing)) closing.then(undefined, () => undefined);
  } catch {
    // A stream that cannot be closed is the provider's to clean up.
  }
}
