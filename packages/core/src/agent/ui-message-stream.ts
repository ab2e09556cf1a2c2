import { AbortedError } from '@keel/reliability';
import type { FinishReason } from '@keel/provider';
import type { ToolCallRecord } from '../tools/tool-result';
import { approvalIdOf } from './approval-id';
import type { RunResult } from '../contracts/run-result';
import type { AgentStreamPart, DeepPartial } from '../contracts/stream-part';
import type { UIFinishReason, UIMessageChunk, UIMessageStreamOptions } from './ui-message-chunk';
import { type NestedTexts, nestedApprovals, nestedChunks } from './ui-nested-chunks';

const UI_FINISH: Readonly<Record<FinishReason, UIFinishReason>> = {
  stop: 'stop',
  'tool-calls': 'tool-calls',
  length: 'length',
  'content-filter': 'content-filter',
  refusal: 'content-filter',
  error: 'error',
  other: 'other',
};

/** What the conversion remembers between parts: the open text part and the tool inputs shown. */
interface Progress {
  text: string | undefined;
  texts: number;
  finishReason: UIFinishReason;
  /** A step was started (`start-step`) and not yet finished. */
  stepOpen: boolean;
  /** Tool call id → the input shown, as JSON, to send a re-asked call's final input. */
  readonly inputs: Map<string, string>;
  /** The text of each step of the agents the run called as tools, by part id. */
  readonly nested: NestedTexts;
}

function* closeText(progress: Progress): Generator<UIMessageChunk<never>> {
  if (progress.text === undefined) return;
  yield { type: 'text-end', id: progress.text };
  progress.text = undefined;
}

function* showInput(progress: Progress, toolCallId: string, toolName: string, input: unknown): Generator<UIMessageChunk<never>> {
  const shown = JSON.stringify(input) ?? 'null';
  if (progress.inputs.get(toolCallId) === shown) return;
  progress.inputs.set(toolCallId, shown);
  yield { type: 'tool-input-available', toolCallId, toolName, input: input ?? null };
}

/**
 * A suspended run's calls: each is shown, then asks for approval. The approval's id names the
 * suspension and the call (`approvalIdOf`), so the client's answer finds the state to resume.
 */
function* approvals<T>(progress: Progress, result: RunResult<T>): Generator<UIMessageChunk<T>> {
  if (result.status !== 'suspended') return;
  for (const pending of result.pendingApprovals) {
    yield* showInput(progress, pending.toolCallId, pending.toolName, pending.arguments);
    yield { type: 'tool-approval-request', approvalId: approvalIdOf(result.state.suspensionId, pending.toolCallId), toolCallId: pending.toolCallId };
    // A call that runs an agent waiting inside it: the calls the agent waits on, by name.
    if (pending.nested) yield* nestedApprovals(pending.toolCallId, pending.nested);
  }
  progress.finishReason = 'tool-calls';
  // The suspended step ends here: the client's message closes it before `finish`.
  if (progress.stepOpen) yield* finishStep(progress);
}

function* finishStep(progress: Progress): Generator<UIMessageChunk<never>> {
  yield* closeText(progress);
  progress.stepOpen = false;
  yield { type: 'finish-step' };
}

/** A tool call's outcome: its output; a call a person rejected, denied; a failure, as `onError` shows it (masked by default: a tool's thrown message is not for the client). */
function outcomeOf(record: ToolCallRecord, options: UIMessageStreamOptions): UIMessageChunk<never> {
  if (!record.isError) return { type: 'tool-output-available', toolCallId: record.toolCallId, output: record.output };
  if (record.errorCode === 'approval-rejected') return { type: 'tool-output-denied', toolCallId: record.toolCallId };
  return { type: 'tool-output-error', toolCallId: record.toolCallId, errorText: options.onError ? options.onError(record) : MASKED };
}

const MASKED = 'An error occurred.';

function* chunksOf<T>(part: AgentStreamPart<T>, progress: Progress, options: UIMessageStreamOptions): Generator<UIMessageChunk<T>> {
  switch (part.type) {
    case 'step-start':
      progress.stepOpen = true;
      return yield { type: 'start-step' };
    case 'text-delta':
      if (progress.text === undefined) {
        progress.text = `text-${part.step}-${++progress.texts}`;
        yield { type: 'text-start', id: progress.text };
      }
      return yield { type: 'text-delta', id: progress.text, delta: part.text };
    case 'retry':
      // Only text that can no longer be held reaches here: the next attempt writes a part of its own.
      return yield* closeText(progress);
    case 'tool-call':
      yield* closeText(progress);
      return yield* showInput(progress, part.call.id, part.call.name, part.call.arguments);
    case 'tool-result': {
      const { record } = part;
      // A re-asked call ran with other arguments than the model first wrote: show those.
      yield* showInput(progress, record.toolCallId, record.toolName, record.arguments);
      return yield outcomeOf(record, options);
    }
    case 'partial-output':
    case 'output':
      if (options.sendOutput === true) yield { type: 'data-output', id: `output-${part.step}`, data: part.value as DeepPartial<T> };
      return;
    case 'step-end':
      progress.finishReason = UI_FINISH[part.finishReason] ?? 'other';
      return yield* finishStep(progress);
    case 'result':
      return yield* approvals(progress, part.result);
    case 'agent-part':
      return yield* nestedChunks(part.agent, part.part, progress.nested, options);
    default:
      // tool-call-delta (a call may still be re-asked), validation-failed: not part of the message.
      return;
  }
}

/**
 * A run's parts as UI message chunks: `start`, then per step `start-step`, text parts, tool calls
 * with their results (a re-asked call shows the arguments it ran with), a suspended run's approval
 * requests, `finish-step`; then `finish`, or `error` / `abort` when the run fails. Read kept parts
 * (see `keptParts`): a UI message cannot take text back.
 */
export async function* uiMessageChunks<T>(parts: AsyncIterable<AgentStreamPart<T>>, options: UIMessageStreamOptions = {}): AsyncGenerator<UIMessageChunk<T>> {
  const progress: Progress = { text: undefined, texts: 0, finishReason: 'stop', stepOpen: false, inputs: new Map(), nested: new Map() };
  yield options.messageId === undefined ? { type: 'start' } : { type: 'start', messageId: options.messageId };
  try {
    for await (const part of parts) yield* chunksOf(part, progress, options);
  } catch (error) {
    yield* closeText(progress);
    if (AbortedError.isInstance(error)) return yield { type: 'abort' };
    return yield { type: 'error', errorText: options.onError ? options.onError(error) : MASKED };
  }
  yield { type: 'finish', finishReason: progress.finishReason };
}
