import { BadResponseError, isPromiseLike, raceSignal } from '@keel/reliability/internal';
import { StreamError } from '../../errors/stream-error';
import type { ModelResponse, ModelStreamPart } from '@keel/provider';
import { checkResponse, read } from '../output/output-verdict';
import { addPartialText, finishPartials, stopPartials } from '../output/partial-output';
import { showAnswerText } from '../output/shown-answer';
import type { RunContext } from '../state/run-context';
import { KeelToolCallIds } from './keel-tool-call-ids';

/**
 * Forwards a provider stream to the run's sink and returns the final response; parts after
 * `finish` are never read, and the stream is closed once Keel stops reading it. In pass-through
 * mode a stream that fails after text was shown is reported as not retryable (`errorKind`
 * `unknown`): the reader already saw part of it, so a silent retry would splice two answers.
 */
export async function consumeStream(state: RunContext, parts: AsyncIterable<ModelStreamPart>, attempt: number, answerTool: string | undefined, keptToolCallIds?: () => ReadonlySet<string>): Promise<ModelResponse> {
  const sink = state.sink;
  const step = state.step;
  const passText = sink?.mode === 'pass-through' || !state.config.output;
  const open = (parts as Partial<AsyncIterable<ModelStreamPart>> | null | undefined)?.[Symbol.asyncIterator];
  if (typeof open !== 'function') throw new BadResponseError({ message: 'stream() returned something that is not an async iterable' });
  const iterator = open.call(parts);
  let shown = false;
  // Tool mode: the ids of answer-tool calls, whose argument text is the answer being written.
  const answerIds = new Set<string>();
  // A step's calls are shown with Keel's ids (see withKeelToolCallIds), by the order they start in.
  const keelIds = new Map<string, string>();
  let ids: KeelToolCallIds | undefined;
  const shownId = (id: string) => keelIds.get(id) ?? id;
  try {
    for (;;) {
      // Each read is raced against the abort signal, so a stream that ignores it cannot hold the run.
      const next: unknown = await raceSignal(iterator.next(), state.signal);
      if (typeof next !== 'object' || next === null) throw new BadResponseError({ message: `the stream's iterator returned ${next === null ? 'null' : typeof next}` });
      if (read(next, 'done', 'a stream read')) throw new StreamError({ problem: 'incomplete' });
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
        if (showAnswerText(state, attempt, text)) shown = true;
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
          stopPartials(state, attempt);
          if (keptToolCallIds && !keelIds.has(id)) keelIds.set(id, (ids ??= new KeelToolCallIds(keptToolCallIds())).idFor(id));
          sink?.push({ type: 'tool-call-delta', step, toolCallId: shownId(id), toolName: name, argumentsDelta: '' });
        }
      } else if (type === 'tool-call-delta') {
        const id = read(part, 'id', 'a tool call delta');
        const argumentsDelta = read(part, 'argumentsDelta', 'a tool call delta');
        if (typeof id !== 'string' || typeof argumentsDelta !== 'string') continue;
        if (!answerIds.has(id)) sink?.push({ type: 'tool-call-delta', step, toolCallId: shownId(id), argumentsDelta });
        else {
          // The answer's text: shown as text where text flows, read for partial values.
          if (passText && showAnswerText(state, attempt, argumentsDelta)) shown = true;
          addPartialText(state, attempt, argumentsDelta);
        }
      }
    }
  } catch (error) {
    if (!shown || state.signal?.aborted) throw error;
    throw new StreamError({ problem: 'interrupted', cause: error });
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
