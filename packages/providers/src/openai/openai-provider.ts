import type OpenAI from 'openai';
import type { ModelCapabilities, ModelProviderV1, ModelRequest } from '@keel/provider';
import { checkOptions, REMOVED_OPTIONS } from '../shared/check-options';
import { loadSdk } from '../shared/load-sdk';
import { resolveModel } from '../shared/resolve-model';
import { sdkProvider } from '../shared/sdk-provider';
import { openAIContextWindow } from './openai-context-window';
import { lowerOpenAISchema } from './lower-schema';
import { mapOpenAIRequest } from './map-request';
import { mapOpenAIResponse } from './map-response';
import { mapOpenAIStream } from './map-stream';
import { openAICapabilities } from './openai-capabilities';
import { openAISchemaRejection } from './openai-schema-rejection';

/**
 * A prebuilt `openai` SDK client (`new OpenAI(...)`), named by the part the provider uses, so that
 * these types compile in a project without that SDK (`skipLibCheck: false` included). Any client
 * of the SDK fits.
 */
export interface OpenAIClient {
  /** The key the client sends; redacted from every error. */
  readonly apiKey: string | null;
  /** The Chat Completions API: `create` takes the SDK's own arguments. */
  readonly chat: { readonly completions: { create(body: never, options?: never): unknown } };
}

/** Options of {@link openai}. */
export interface OpenAIProviderOptions {
  /**
   * API key; the SDK reads `OPENAI_API_KEY` when omitted. With a custom base URL and no key at
   * all, a placeholder is sent (local OpenAI-compatible servers need none). Ignored with `client`.
   */
  readonly apiKey?: string;
  /**
   * Base URL of an OpenAI-compatible API, e.g. `http://127.0.0.1:11434/v1` for a local server;
   * the SDK reads `OPENAI_BASE_URL` when omitted. Ignored with `client`.
   */
  readonly baseURL?: string;
  /** Milliseconds before a request times out (the SDK's `timeout`). Ignored with `client`. */
  readonly timeout?: number;
  /**
   * A prebuilt SDK client. Its own retry setting is overridden: every request is sent with
   * `maxRetries: 0`.
   */
  readonly client?: OpenAIClient;
  /**
   * What the model behind this provider supports, overriding the built-in table field by field:
   * `nativeOutput` (strict `response_format: { type: 'json_schema' }`) and `strictTools`
   * (`function.strict: true`). OpenAI's own models are known (gpt-4o and later, gpt-4.1, gpt-5,
   * the o-series; see `openAICapabilities`); a model on an OpenAI-compatible server is assumed to
   * have neither until declared here, e.g. `{ nativeOutput: true, strictTools: true }` for a
   * server that constrains decoding to a JSON Schema.
   */
  readonly capabilities?: ModelCapabilities;
  /**
   * Removed: declare native output with `capabilities: { nativeOutput: true }`; Keel then sends a
   * strict, lowered `response_format` where its output mode asks for it. Passing it throws.
   * @deprecated Use `capabilities: { nativeOutput: true }`.
   */
  readonly structuredOutput?: never;
  /**
   * The body field for the token limit: `max_tokens` (default; what OpenAI-compatible servers such
   * as Ollama, vLLM and llama.cpp read) or `max_completion_tokens` (required by OpenAI's reasoning
   * models, which reject `max_tokens`).
   */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

const providerName = 'openai';
/** The `openai` SDK versions this adapter is written for (its optional peer dependency). */
const openaiSdkRange = '^6.30.0';

/**
 * The key to give the SDK: the option's; else none (the SDK reads its environment), except for a
 * custom base URL without any key — local compatible servers need none, but the SDK refuses to
 * start without one, so a placeholder is sent.
 */
function apiKeyOption(options: OpenAIProviderOptions): { apiKey?: string } {
  if (options.apiKey !== undefined) return { apiKey: options.apiKey };
  const environment = process.env;
  const customBaseURL = options.baseURL ?? environment['OPENAI_BASE_URL'];
  const hasKey = (environment['OPENAI_API_KEY'] ?? '') !== '' || (environment['OPENAI_ADMIN_KEY'] ?? '') !== '';
  return customBaseURL !== undefined && customBaseURL !== '' && !hasKey ? { apiKey: 'not-needed' } : {};
}

/**
 * A Keel model provider on the Chat Completions API (official SDK), so it also serves
 * OpenAI-compatible servers. It never retries: the SDK runs with `maxRetries: 0` so the
 * reliability gate sees, counts and bills every attempt. Errors are thrown as
 * {@link ProviderError} with an exact `errorKind`. The SDK (`openai`, an optional peer dependency)
 * is loaded on the first call; when it is not installed, that call throws {@link MissingSdkError}.
 *
 * Native structured output: `capabilities(modelId)` says which models take a strict
 * `response_format` and strict function tools, `lowerSchema` rewrites a schema to what strict
 * mode accepts, and a request with `responseFormat.strict` or a tool with `strict` sends them. A
 * 400 refusing such a schema is a `bad-request` ProviderError with `schemaRejected` set. The
 * removed `structuredOutput` option throws a `TypeError` naming its replacement.
 */
export function openai(options: OpenAIProviderOptions = {}): ModelProviderV1 {
  checkOptions(providerName, options, ['apiKey', 'baseURL', 'timeout', 'client', 'capabilities', 'maxTokensField'], {
    ...REMOVED_OPTIONS,
    structuredOutput:
      'it was replaced by openai({ capabilities: { nativeOutput: true } }): Keel sends a strict, lowered response_format where its output mode asks for one',
  });
  const maxTokensField = options.maxTokensField ?? 'max_tokens';
  const body = (request: ModelRequest) => mapOpenAIRequest(request, { model: resolveModel(request.model, providerName), maxTokensField });

  return sdkProvider<OpenAI>({
    name: providerName,
    label: 'OpenAI',
    secrets: [options.apiKey, options.client?.apiKey],
    declared: options.capabilities,
    connect: async () => {
      const sdk = await loadSdk(() => import('openai'), { sdk: 'openai', range: openaiSdkRange, provider: providerName });
      const client =
        (options.client as OpenAI | undefined) ??
        new sdk.default({
          maxRetries: 0,
          ...apiKeyOption(options),
          ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
          ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
        });
      return {
        client,
        classes: { userAbort: sdk.APIUserAbortError, connectionTimeout: sdk.APIConnectionTimeoutError, connection: sdk.APIConnectionError },
        secrets: [client.apiKey],
      };
    },
    capabilities: openAICapabilities,
    contextWindow: openAIContextWindow,
    lowerSchema: lowerOpenAISchema,
    missingKey: /Missing credentials|Could not resolve authentication method|OPENAI_API_KEY environment variable is missing/,
    schemaRejection: openAISchemaRejection,
    generate: async (client, request, requestOptions) => mapOpenAIResponse(await client.chat.completions.create(body(request), requestOptions), { provider: providerName }),
    async *stream(client, request, requestOptions) {
      const chunks = await client.chat.completions.create({ ...body(request), stream: true, stream_options: { include_usage: true } }, requestOptions);
      yield* mapOpenAIStream(chunks, { provider: providerName });
    },
  });
}
