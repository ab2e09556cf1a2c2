import type { ErrorKind, TokenUsage } from '@keel/reliability';
import type { AssistantMessage, Message, ToolCallPart } from './message';

/**
 * Keel's model specification, version 1. Types only: a provider implements
 * {@link ModelProviderV1}. A later version is added beside this one, never edited in.
 */

/** A tool as the model sees it. */
export interface ToolSpecification {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the tool's input (an object schema). */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /**
   * Ask the provider to constrain the arguments to `inputSchema` (strict tools). Core sets it only
   * where {@link ModelCapabilities.strictTools} says the model supports it, and then sends the
   * schema already lowered by {@link ModelProviderV1.lowerSchema}. Keel validates the full schema
   * either way.
   */
  readonly strict?: boolean;
}

/**
 * How the model may use tools: `auto` (it decides), `required` (it must call one), `none`, or a
 * named tool it must call (used by the tool-argument re-ask).
 */
export type ToolChoice =
  | { readonly type: 'auto' }
  | { readonly type: 'required' }
  | { readonly type: 'none' }
  | { readonly type: 'tool'; readonly name: string };

/** A request for structured output, for providers with a native JSON mode. */
export interface ResponseFormat {
  readonly type: 'json';
  /** JSON Schema the output must match. */
  readonly schema?: Readonly<Record<string, unknown>>;
  readonly name?: string;
  /**
   * Constrain decoding to `schema` (native structured output). Core sets it only where
   * {@link ModelCapabilities.nativeOutput} says the model supports it, with the schema lowered by
   * {@link ModelProviderV1.lowerSchema}; without it the format is a hint the decoder may ignore.
   */
  readonly strict?: boolean;
}

/** What a provider supports for one model id; every field defaults to `false`. */
export interface ModelCapabilities {
  /** Constrained decoding of the final answer to a JSON Schema (`responseFormat.strict`). */
  readonly nativeOutput?: boolean;
  /** Constrained decoding of tool arguments to their input schema (`ToolSpecification.strict`). */
  readonly strictTools?: boolean;
  /**
   * The model's context window in tokens (input and output together), when the provider knows it
   * (added in 1.1). Absent means unknown.
   */
  readonly contextWindow?: number;
}

/**
 * A schema rewritten to the subset a provider's constrained decoder accepts. Keel still validates
 * against the full schema; `removed` says what the decoder will not enforce.
 */
export interface LoweredSchema {
  /** The schema to send. */
  readonly schema: Readonly<Record<string, unknown>>;
  /** What was changed, one line each, e.g. `removed maxLength at /properties/name`. */
  readonly changes: readonly string[];
}

/** One model call. */
export interface ModelRequest {
  /** The provider's model id, e.g. `claude-sonnet-4-6`. */
  readonly model: string;
  /** System prompt. */
  readonly system?: string;
  /** The conversation, oldest first; never contains system messages (see `system`). */
  readonly messages: readonly Message[];
  /** Tools the model may call. */
  readonly tools?: readonly ToolSpecification[];
  /** Default `auto` when tools are given. */
  readonly toolChoice?: ToolChoice;
  /** Largest number of tokens to generate. */
  readonly maxTokens?: number;
  /** Sampling temperature. */
  readonly temperature?: number;
  /** Sequences that end generation. */
  readonly stop?: readonly string[];
  /** Native structured output, where the provider has it. Keel validates either way. */
  readonly responseFormat?: ResponseFormat;
  /**
   * The model's own answer so far, cut at the token limit (finish reason `length`; trailing
   * whitespace removed): the model is to continue it, and the response's text is only what
   * follows. How is the provider's: as an assistant prefill where the API continues a trailing
   * assistant message (Anthropic), else as an assistant message followed by an instruction to
   * continue exactly where it stopped (OpenAI-compatible servers). Keel joins the two, removing
   * what the continuation repeats; a provider that ignores this field is asked the same question
   * again and its answer must then repeat the cut output.
   */
  readonly continueFrom?: string;
}

/**
 * Why generation ended: `stop` (a final turn or stop sequence), `tool-calls`, `length` (the token
 * limit; the output is truncated), `content-filter`, `refusal`, `error`, or `other`.
 */
export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'refusal' | 'error' | 'other';

/** The answer to one call. */
export interface ModelResponse {
  /** Text and tool calls, in order. */
  readonly content: AssistantMessage['content'];
  /** All text parts joined: the raw text that final-output validation reads. */
  readonly text: string;
  readonly finishReason: FinishReason;
  readonly usage: TokenUsage;
  /** The model that answered, when the provider says. */
  readonly modelId?: string;
  /** The provider's response id, when it has one. */
  readonly responseId?: string;
}

/** A piece of a streamed answer. The last part of a successful stream is `finish`. */
export type ModelStreamPart =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'tool-call-start'; readonly id: string; readonly name: string }
  | { readonly type: 'tool-call-delta'; readonly id: string; readonly argumentsDelta: string }
  | { readonly type: 'tool-call'; readonly call: ToolCallPart }
  | { readonly type: 'finish'; readonly response: ModelResponse };

/** Per-call options. */
export interface ModelCallOptions {
  /** Aborts the request; the provider must reject promptly with an abort error. */
  readonly signal?: AbortSignal;
}

/**
 * What a provider throws. Any error works; one with `errorKind` (and `retryAfterMs` for rate
 * limits) is classified exactly, others by status code, name and socket code.
 */
export interface ModelCallErrorShape {
  readonly errorKind?: ErrorKind;
  readonly retryAfterMs?: number;
  readonly status?: number;
  /**
   * On a `bad-request` (HTTP 400) that refused a strict schema the request sent: `output` (the
   * native response format), `tool` (a strict tool's input schema) or `both`. Keel then retries
   * the same run at once in the next output mode, or without strict tools, and remembers it.
   */
  readonly schemaRejected?: SchemaRejection;
}

/**
 * Which strict schema a provider refused with a `bad-request` (HTTP 400): `output` for the native
 * output format (`responseFormat.strict`), `tool` for a strict tool's input schema
 * (`ToolSpecification.strict`), `both` when the vendor refused the request's strict schemas
 * together without saying which.
 */
export type SchemaRejection = 'output' | 'tool' | 'both';

/**
 * A model provider. It must not retry on its own (the gate owns retries, so every attempt is seen
 * and counted) and must honour the signal.
 */
export interface ModelProviderV1 {
  readonly specificationVersion: 'v1';
  /** Short provider name, e.g. `anthropic`, `openai`, `scripted`. */
  readonly name: string;
  /** Makes one call. */
  generate(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse>;
  /** Streams one call; optional. Ends with a `finish` part, or throws. */
  stream?(request: ModelRequest, options: ModelCallOptions): AsyncIterable<ModelStreamPart>;
  /**
   * Optional: returns `text` with the provider's secrets (its API key) replaced. A run applies it
   * to every tool error message (a tool, validator or guard that throws an error quoting the key)
   * before the message reaches the model, the result, memory or events.
   */
  redact?(text: string): string;
  /** Optional: what the provider supports for a model id. Absent means nothing native. */
  capabilities?(modelId: string): ModelCapabilities;
  /**
   * Optional (added in 1.1): what is wrong with using `modelId` on this provider, found without a
   * call (a model the provider cannot make, an instance made for another id), or `undefined`
   * when nothing is. An agent's `build()` asks it for each of its models and refuses the
   * configuration with this text.
   */
  checkModel?(modelId: string): string | undefined;
  /**
   * Optional: rewrites a JSON Schema to the subset the provider's decoder accepts (`purpose` says
   * whether it is for the final answer or a tool's input). Returns `undefined` when the schema
   * cannot be lowered at all; Keel then uses the next output mode. Must be pure.
   */
  lowerSchema?(schema: Readonly<Record<string, unknown>>, purpose: 'output' | 'tool'): LoweredSchema | undefined;
}

/** The current provider version. */
export type ModelProvider = ModelProviderV1;
