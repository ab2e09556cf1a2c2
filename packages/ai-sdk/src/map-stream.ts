import { badResponse, finishPart, type ModelStreamPart, ProviderError, refuseContextWindowStop, shapeOf, type StrictParts, type TextPart, type ToolCallPart } from '@keel/provider';
import { mapAiSdkError } from './map-error';
import { mapFinishReason, rawFinishReason } from './map-finish-reason';
import { mapUsage } from './map-usage';
import { toolCallOf } from './parse-tool-input';
import type { ToolCallMetadata } from './tool-call-metadata';

/** What {@link mapStream} needs besides the stream. */
export interface StreamContext {
  readonly provider: string;
  readonly toolCalls: ToolCallMetadata;
  readonly signal: AbortSignal | undefined;
  readonly secrets: readonly string[];
  readonly sent?: StrictParts | undefined;
}

/** Read afresh each time: the signal may abort while a read is pending. */
const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

/**
 * A finish part the provider package made up at the end of a stream that never told why it
 * finished: finish reason `other` with no raw reason and no token count at all. `@ai-sdk/google`
 * emits one when the body ends cleanly but early; it is a dropped stream, not a short answer.
 */
function isCutShort(fields: Record<string, unknown>): boolean {
  const reason = fields.finishReason as { unified?: unknown; raw?: unknown } | undefined;
  if (typeof reason !== 'object' || reason === null || reason.unified !== 'other' || reason.raw !== undefined) return false;
  const usage = fields.usage as { inputTokens?: { total?: unknown }; outputTokens?: { total?: unknown } } | undefined;
  return typeof usage?.inputTokens?.total !== 'number' && typeof usage?.outputTokens?.total !== 'number';
}

type Slot = { readonly type: 'text'; text: string } | { readonly type: 'tool'; call: ToolCallPart };

/**
 * Maps the spec's stream (`doStream`'s `ReadableStream`) to Keel stream parts: `text-delta` per
 * text delta (the answer's text is the deltas in stream order, interleaved text parts included), `tool-call-start` per `tool-input-start` (or before a `tool-call` that had none),
 * `tool-call-delta` per `tool-input-delta`, `tool-call` with the JSON-encoded input (and its raw
 * text), and `finish` with the whole response once the spec's `finish` part arrives. Reading stops
 * there, and the stream is cancelled whenever Keel stops reading (a finish, an error, an abort or
 * a consumer that leaves early), so the connection is let go at once. An `error` part throws the
 * mapped error; a stream that ends without `finish`, or with a finish that gives neither a raw
 * reason nor any usage (what a provider package emits when the body ended early), throws a
 * `network` error (a dropped stream never ends as a short answer); an aborted signal ends the read with an `aborted` error even when
 * the model ignores the signal.
 */
export async function* mapStream(stream: ReadableStream<unknown>, context: StreamContext): AsyncGenerator<ModelStreamPart, void, undefined> {
  const { provider, signal } = context;
  const reader = stream.getReader();
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  const slots: Slot[] = [];
  const started = new Set<string>();
  let responseId: string | undefined;
  let modelId: string | undefined;
  try {
    for (;;) {
      if (isAborted(signal)) throw mapAiSdkError(signal?.reason, context);
      const { done, value: part } = await reader.read();
      if (isAborted(signal)) throw mapAiSdkError(signal?.reason, context);
      if (done) break;
      if (typeof part !== 'object' || part === null) throw badResponse(provider, `a stream part is ${shapeOf(part)}`);
      const fields = part as Record<string, unknown>;
      switch (fields.type) {
        case 'response-metadata':
          if (typeof fields.id === 'string') responseId = fields.id;
          if (typeof fields.modelId === 'string') modelId = fields.modelId;
          break;
        case 'text-delta': {
          if (typeof fields.delta !== 'string') throw badResponse(provider, `a text delta is ${shapeOf(fields.delta)}`);
          if (fields.delta === '') break;
          // Text in stream order, whatever part it belongs to: the answer says what the stream showed.
          const last = slots.at(-1);
          if (last?.type === 'text') last.text += fields.delta;
          else slots.push({ type: 'text', text: fields.delta });
          yield { type: 'text-delta', text: fields.delta };
          break;
        }
        case 'tool-input-start':
          if (fields.providerExecuted === true) break;
          if (typeof fields.id !== 'string' || typeof fields.toolName !== 'string') throw badResponse(provider, 'a tool-input-start has no string id and toolName');
          started.add(fields.id);
          yield { type: 'tool-call-start', id: fields.id, name: fields.toolName };
          break;
        case 'tool-input-delta':
          if (typeof fields.id !== 'string' || !started.has(fields.id)) break;
          if (typeof fields.delta !== 'string') throw badResponse(provider, `a tool input delta is ${shapeOf(fields.delta)}`);
          if (fields.delta !== '') yield { type: 'tool-call-delta', id: fields.id, argumentsDelta: fields.delta };
          break;
        case 'tool-call': {
          if (fields.providerExecuted === true) break;
          const { toolCallId, toolName } = fields;
          if (typeof toolCallId !== 'string' || typeof toolName !== 'string') throw badResponse(provider, 'a tool call has no string toolCallId and toolName');
          if (!started.has(toolCallId)) yield { type: 'tool-call-start', id: toolCallId, name: toolName };
          const call = toolCallOf(toolCallId, toolName, fields.input);
          context.toolCalls.remember(toolCallId, toolName, fields.providerMetadata as never);
          slots.push({ type: 'tool', call });
          yield { type: 'tool-call', call };
          break;
        }
        case 'error':
          throw mapAiSdkError(fields.error, context);
        case 'finish': {
          if (isCutShort(fields)) throw new ProviderError({ message: `${provider}: the stream ended before the provider said why it finished (no finish reason, no usage): the connection ended early`, errorKind: 'network', provider });
          refuseContextWindowStop(rawFinishReason(fields.finishReason), provider);
          const content = slots.flatMap((slot): (TextPart | ToolCallPart)[] => (slot.type === 'tool' ? [slot.call] : slot.text === '' ? [] : [{ type: 'text', text: slot.text }]));
          yield finishPart({ content, finishReason: mapFinishReason(fields.finishReason), usage: mapUsage(fields.usage), modelId, responseId });
          return;
        }
        default:
          // stream-start, reasoning, sources, files, raw chunks, provider-executed tools: not Keel's.
          break;
      }
    }
    throw new ProviderError({ message: `${provider}: the stream ended before its finish part: the connection dropped mid-way`, errorKind: 'network', provider });
  } catch (error) {
    throw mapAiSdkError(error, context);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Never awaited: a source whose cancel hangs must not hold the caller.
    void reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
