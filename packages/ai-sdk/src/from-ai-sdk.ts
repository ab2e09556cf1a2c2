import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { AISDKModelSource, AISDKProviderOptions } from './ai-sdk-model';
import { AbortedError } from '@keel/core';
import { badResponse, type LoweredSchema, type ModelCallOptions, type ModelCapabilities, type ModelProviderV1, type ModelRequest, type ModelResponse, type ModelStreamPart, ProviderError, raceSignal, redactSecrets, secretsOf, strictPartsOf } from '@keel/provider';
import { cacheBreakpointOf, cachesToolDefinitions } from './cache-hints';
import { geminiTakesJsonWithTools, isGemini } from './capabilities';
import { modelFacts } from './model-facts';
import { lowerGeminiSchema } from './lower-gemini-schema';
import { mapCallOptions } from './map-call-options';
import { mapAiSdkError } from './map-error';
import { mapResponse } from './map-response';
import { mapStream } from './map-stream';
import { continuationOf } from './continuation';
import { environmentKeyOf } from './environment-key';
import { ToolCallMetadata } from './tool-call-metadata';


/** Options of {@link fromAISDK}. */
export interface FromAISDKOptions {
  /**
   * Place prompt-cache breakpoints (system prompt, last tool, last message that is not
   * ephemeral) as the provider's own options, where its package takes them: Anthropic
   * (`cacheControl`) and Amazon Bedrock (`cachePoint`). Others cache on their own. Default false.
   */
  readonly cache?: boolean;
  /** Provider options sent with every call, e.g. `{ google: { thinkingConfig: { thinkingBudget: 0 } } }`. */
  readonly providerOptions?: AISDKProviderOptions;
  /**
   * What the model supports natively, when you know better than the adapter (which declares only
   * what it knows of a provider package: Gemini's native output and strict tools).
   */
  readonly capabilities?: ModelCapabilities | ((modelId: string) => ModelCapabilities);
  /**
   * The model's context window in tokens (a number, or one per model id): the AI SDK's model spec
   * does not say it, so `capabilities(modelId).contextWindow` is what is given here.
   */
  readonly contextWindow?: number | ((modelId: string) => number | undefined);
  /**
   * Secrets (API keys) to redact from errors and tool error messages. The key the model's package
   * reads from the environment by default (`GOOGLE_GENERATIVE_AI_API_KEY`, `ANTHROPIC_API_KEY`, ...)
   * is redacted without being listed.
   */
  readonly secrets?: readonly string[];
  /** The provider's name in events and traces. Default: the model's provider id, e.g. `google.generative-ai`. */
  readonly name?: string;
}

function isLanguageModel(value: unknown): value is { readonly specificationVersion: unknown; doGenerate: unknown } {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && 'doGenerate' in value;
}

/** Refuses a model of another spec version with what to do instead. */
function checkVersion(model: { readonly specificationVersion: unknown }): LanguageModelV3 {
  const version = model.specificationVersion;
  if (version === 'v3') return model as LanguageModelV3;
  if (version === 'v2') throw new TypeError('fromAISDK: this model implements language model spec v2 (AI SDK 5 provider packages); @keel/ai-sdk speaks spec v3: install the AI SDK 6 provider package (e.g. @ai-sdk/google@3).');
  throw new TypeError(`fromAISDK: this model implements language model spec ${String(version)}; @keel/ai-sdk speaks spec v3 (AI SDK 6 provider packages, e.g. @ai-sdk/google@3, which run on Node 20).`);
}

/** A function that returns the model of an id, from any of the sources {@link fromAISDK} takes. */
function resolverOf(source: AISDKModelSource): { single?: LanguageModelV3; resolve: (modelId: string) => LanguageModelV3 } {
  if (isLanguageModel(source)) {
    const single = checkVersion(source);
    return { single, resolve: () => single };
  }
  const languageModel = (source as { languageModel?: unknown }).languageModel;
  const make = typeof languageModel === 'function' ? (id: string) => (languageModel as (id: string) => unknown).call(source, id) : typeof source === 'function' ? (id: string) => (source as (id: string) => unknown)(id) : undefined;
  if (make === undefined) throw new TypeError('fromAISDK: expected an AI SDK language model (spec v3) or a provider that makes one (e.g. google from @ai-sdk/google)');
  const models = new Map<string, LanguageModelV3>();
  return {
    resolve: (modelId) => {
      let model = models.get(modelId);
      if (model === undefined) {
        const made = make(modelId);
        if (!isLanguageModel(made)) throw new TypeError(`fromAISDK: the provider returned no language model for ${JSON.stringify(modelId)}`);
        model = checkVersion(made);
        models.set(modelId, model);
      }
      return model;
    },
  };
}

/**
 * What a call failed with, for the error mapping: the abort's own reason when {@link raceSignal}
 * gave up on a model that ignored the signal, so the message says why the caller aborted.
 */
function failureOf(error: unknown, signal: AbortSignal | undefined): unknown {
  return signal?.aborted === true && AbortedError.isInstance(error) && error.cause === signal.reason ? signal.reason : error;
}

/**
 * A Keel model provider on any AI SDK language model (spec `v3`: the AI SDK 6 provider packages,
 * `@ai-sdk/google`, `@ai-sdk/anthropic`, `@ai-sdk/mistral`, `@ai-sdk/amazon-bedrock`, the gateway...).
 * Each call goes straight to the model's `doGenerate` / `doStream`, once: the AI SDK's own retries
 * live in `generateText`, which is not used, so the reliability gate sees, counts and bills every
 * attempt. Errors are thrown as {@link ProviderError} with an exact `errorKind` and the
 * server's `Retry-After`.
 *
 * Pass a model (`fromAISDK(google('gemini-2.5-flash'))`, with the same id as the agent's `model`)
 * or a provider (`fromAISDK(google)`, the model picked by the agent's `model`).
 */
export function fromAISDK(source: AISDKModelSource, options: FromAISDKOptions = {}): ModelProviderV1 {
  const { single, resolve } = resolverOf(source);
  const toolCalls = new ToolCallMetadata();
  const cache = options.cache === true;
  const name = options.name ?? single?.provider ?? 'ai-sdk';
  // The provider id of the model last resolved: lowerSchema is given no model id.
  let lastProvider: string | undefined;
  let secrets = secretsOf([...(options.secrets ?? []), single === undefined ? undefined : environmentKeyOf(single.provider)]);

  const facts = modelFacts({ single, resolve, capabilities: options.capabilities, contextWindow: options.contextWindow, onResolved: (provider) => void (lastProvider = provider) });

  const modelFor = (request: ModelRequest): LanguageModelV3 => {
    if (single !== undefined && request.model !== single.modelId) {
      throw new ProviderError({
        message: `${single.provider}: this provider wraps the AI SDK model ${JSON.stringify(single.modelId)}, but the agent asked for ${JSON.stringify(request.model)}: set the agent's model to ${JSON.stringify(single.modelId)}, or pass the provider (fromAISDK(google)) to pick models by id`,
        errorKind: 'bad-request',
        provider: single.provider,
      });
    }
    const model = resolve(request.model);
    if (single === undefined) secrets = secretsOf([...secrets, environmentKeyOf(model.provider)]);
    lastProvider = model.provider;
    return model;
  };

  const prepare = (request: ModelRequest, signal: AbortSignal | undefined) => {
    let model: LanguageModelV3;
    try {
      model = modelFor(request);
    } catch (error) {
      if (ProviderError.isInstance(error)) throw error;
      throw mapAiSdkError(error, { provider: name, signal, secrets });
    }
    const breakpoint = cache ? cacheBreakpointOf(model.provider) : undefined;
    // Gemini before 3 refuses a JSON format beside function declarations: the format goes only on
    // requests without tools there (Keel validates every answer either way).
    const dropFormat = request.responseFormat !== undefined && (request.tools?.length ?? 0) > 0 && isGemini(model.provider) && !geminiTakesJsonWithTools(model.modelId);
    const { responseFormat, ...rest } = request;
    const messages = continuationOf(request, model.provider);
    const sent: ModelRequest = dropFormat || responseFormat === undefined ? { ...rest, messages } : { ...rest, messages, responseFormat };
    const callOptions = mapCallOptions(sent, { cacheBreakpoint: breakpoint, cacheTools: cachesToolDefinitions(model.provider), toolCalls, providerOptions: options.providerOptions as SharedV3ProviderOptions | undefined }, signal);
    return { model, callOptions, context: { provider: model.provider, signal, secrets, toolCalls, sent: strictPartsOf(sent) } };
  };

  return {
    specificationVersion: 'v1',
    name,

    redact: (text: string) => redactSecrets(text, secrets),

    capabilities: facts.capabilities,
    checkModel: facts.checkModel,

    lowerSchema(schema: Readonly<Record<string, unknown>>): LoweredSchema | undefined {
      // Gemini's rules are known (its package's own rewrite); other decoders take the schema as it is.
      const provider = single?.provider ?? lastProvider;
      return provider !== undefined && isGemini(provider) ? lowerGeminiSchema(schema) : { schema, changes: [] };
    },

    async generate(request: ModelRequest, callOptions: ModelCallOptions): Promise<ModelResponse> {
      const { signal } = callOptions;
      if (signal?.aborted === true) throw mapAiSdkError(signal.reason, { provider: name, signal, secrets });
      const { model, callOptions: options_, context } = prepare(request, signal);
      let result: unknown;
      try {
        result = await raceSignal(model.doGenerate(options_), signal);
      } catch (error) {
        throw mapAiSdkError(failureOf(error, signal), context);
      }
      try {
        return mapResponse(result, context);
      } catch (error) {
        if (ProviderError.isInstance(error)) throw error;
        // A getter or Proxy of the result that throws: the answer broke the spec.
        throw badResponse(context.provider, 'the result could not be read (a getter threw)');
      }
    },

    async *stream(request: ModelRequest, callOptions: ModelCallOptions): AsyncGenerator<ModelStreamPart, void, undefined> {
      const { signal } = callOptions;
      if (signal?.aborted === true) throw mapAiSdkError(signal.reason, { provider: name, signal, secrets });
      const { model, callOptions: options_, context } = prepare(request, signal);
      let stream: ReadableStream<unknown>;
      try {
        const result = await raceSignal(model.doStream(options_), signal);
        stream = result.stream;
        if (typeof stream?.getReader !== 'function') throw badResponse(context.provider, 'doStream returned no readable stream');
      } catch (error) {
        throw mapAiSdkError(failureOf(error, signal), context);
      }
      yield* mapStream(stream, context);
    },
  };
}
