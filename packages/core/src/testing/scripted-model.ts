import { AbortedError } from '@keel/reliability';
import { sleep } from '@keel/reliability/internal';
import { ScriptExhaustedError } from '../errors/script-exhausted-error';
import type { FinishReason, LoweredSchema, ModelCallOptions, ModelCapabilities, ModelProviderV1, ModelRequest, ModelResponse, ModelStreamPart, TextPart, ToolCallPart } from '@keel/provider';
import type { TokenUsage } from '@keel/reliability';

/** One scripted answer, as a plain object. */
export interface ScriptedTurn {
  readonly text?: string;
  /** Tool calls; `argumentsText` is the raw text of the arguments as a provider would hand it over (default: their JSON). */
  readonly toolCalls?: readonly { readonly id?: string; readonly name: string; readonly arguments: unknown; readonly argumentsText?: string }[];
  /** Default: `tool-calls` when there are tool calls, else `stop`. */
  readonly finishReason?: FinishReason;
  /** Default: estimated from characters (about 4 per token). */
  readonly usage?: Partial<TokenUsage>;
  /** Waits this long before answering (abortable). */
  readonly delayMs?: number;
}

/** A scripted answer: text, a turn, or an Error to throw (to simulate provider faults). */
export type ScriptedReply = string | ScriptedTurn | Error;

/** What `scriptedModel` takes: one reply for every call, one per call, or a function of the request. */
export type Script =
  | ScriptedReply
  | readonly ScriptedReply[]
  | ((request: ModelRequest, call: number) => ScriptedReply | Promise<ScriptedReply>);

/** A scripted provider, with what it received. */
export interface ScriptedModel extends ModelProviderV1 {
  /** Every request received, in order. */
  readonly requests: readonly ModelRequest[];
  /** Number of calls made so far. */
  readonly calls: number;
}

/** About four characters a token: deterministic, so demos and tests print stable numbers. */
const tokensFor = (chars: number) => Math.max(1, Math.ceil(chars / 4));

function requestChars(request: ModelRequest): number {
  let chars = request.system?.length ?? 0;
  for (const message of request.messages) {
    if (typeof message.content === 'string') chars += message.content.length;
    else
      for (const part of message.content) {
        chars += part.type === 'text' ? part.text.length : part.type === 'tool-result' ? part.output.length : JSON.stringify(part.arguments ?? null).length;
      }
  }
  return chars;
}

function toResponse(reply: string | ScriptedTurn, request: ModelRequest, call: number): ModelResponse {
  const turn: ScriptedTurn = typeof reply === 'string' ? { text: reply } : reply;
  const content: (TextPart | ToolCallPart)[] = [];
  if (turn.text) content.push({ type: 'text', text: turn.text });
  turn.toolCalls?.forEach((toolCall, index) => {
    const id = toolCall.id ?? `call_${call}_${index + 1}`;
    content.push(toolCall.argumentsText === undefined ? { type: 'tool-call', id, name: toolCall.name, arguments: toolCall.arguments } : { type: 'tool-call', id, name: toolCall.name, arguments: toolCall.arguments, argumentsText: toolCall.argumentsText });
  });
  const text = turn.text ?? '';
  const outputChars = text.length + (turn.toolCalls ? JSON.stringify(turn.toolCalls).length : 0);
  return {
    content,
    text,
    finishReason: turn.finishReason ?? (turn.toolCalls?.length ? 'tool-calls' : 'stop'),
    usage: {
      inputTokens: turn.usage?.inputTokens ?? tokensFor(requestChars(request)),
      outputTokens: turn.usage?.outputTokens ?? tokensFor(outputChars),
      cacheReadTokens: turn.usage?.cacheReadTokens ?? 0,
      cacheWriteTokens: turn.usage?.cacheWriteTokens ?? 0,
    },
    modelId: request.model,
  };
}

/** Options of {@link scriptedModel}. */
export interface ScriptedModelOptions {
  /** The provider's name. Default `scripted`. */
  readonly name?: string;
  /**
   * What the model supports (native output, strict tools), for every model id or per id. Default
   * nothing: output mode `auto` is then `prompt`.
   */
  readonly capabilities?: ModelCapabilities | ((modelId: string) => ModelCapabilities);
  /** Lowers a schema for the simulated decoder; without it, schemas are sent as they are. */
  readonly lowerSchema?: (schema: Readonly<Record<string, unknown>>, purpose: 'output' | 'tool') => LoweredSchema | undefined;
}

/**
 * A model that answers from a script: the embedded default model of the demo and of every test.
 * Records every request; throws {@link ScriptExhaustedError} when an array script runs out;
 * throws a scripted `Error` as a provider fault; honours the abort signal.
 */
export function scriptedModel(script: Script, options: ScriptedModelOptions = {}): ScriptedModel {
  const requests: ModelRequest[] = [];
  let calls = 0;

  const next = async (request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> => {
    if (signal?.aborted) throw AbortedError.fromSignal(signal);
    requests.push(request);
    const call = ++calls;
    let reply: ScriptedReply;
    if (typeof script === 'function') reply = await script(request, call);
    else if (Array.isArray(script)) {
      const list = script as readonly ScriptedReply[];
      if (call > list.length) throw new ScriptExhaustedError({ call, scriptLength: list.length });
      reply = list[call - 1] as ScriptedReply;
    } else reply = script as ScriptedReply;
    if (reply instanceof Error) throw reply;
    if (typeof reply !== 'string' && reply.delayMs) await sleep(reply.delayMs, signal);
    return toResponse(reply, request, call);
  };

  return {
    specificationVersion: 'v1',
    name: options.name ?? 'scripted',
    get requests() {
      return requests;
    },
    get calls() {
      return calls;
    },
    generate: (request: ModelRequest, callOptions: ModelCallOptions) => next(request, callOptions.signal),
    ...(options.capabilities === undefined ? {} : { capabilities: (modelId: string) => (typeof options.capabilities === 'function' ? options.capabilities(modelId) : (options.capabilities ?? {})) }),
    ...(options.lowerSchema === undefined ? {} : { lowerSchema: options.lowerSchema }),
    async *stream(request: ModelRequest, callOptions: ModelCallOptions): AsyncIterable<ModelStreamPart> {
      const response = await next(request, callOptions.signal);
      for (const part of response.content) {
        if (part.type === 'text') {
          for (let index = 0; index < part.text.length; index += 16) yield { type: 'text-delta', text: part.text.slice(index, index + 16) };
        } else {
          yield { type: 'tool-call-start', id: part.id, name: part.name };
          const text = part.argumentsText ?? JSON.stringify(part.arguments);
          for (let index = 0; index < text.length; index += 16) yield { type: 'tool-call-delta', id: part.id, argumentsDelta: text.slice(index, index + 16) };
          yield { type: 'tool-call', call: part };
        }
      }
      yield { type: 'finish', response };
    },
  };
}
