import type Anthropic from '@anthropic-ai/sdk';
import type { ModelCapabilities, ModelProviderV1, ModelRequest } from '@keel/provider';
import { checkOptions, REMOVED_OPTIONS } from '../shared/check-options';
import { loadSdk } from '../shared/load-sdk';
import { resolveModel } from '../shared/resolve-model';
import { sdkProvider } from '../shared/sdk-provider';
import { anthropicContextWindow } from './anthropic-context-window';
import { anthropicCapabilities } from './anthropic-capabilities';
import { anthropicSchemaRejection } from './anthropic-schema-rejection';
import { lowerAnthropicSchema } from './lower-schema';
import { mapAnthropicRequest } from './map-request';
import { mapAnthropicResponse } from './map-response';
import { mapAnthropicStream } from './map-stream';

/**
 * A prebuilt `@anthropic-ai/sdk` client (`new Anthropic(...)`), named by the part the provider
 * uses, so that these types compile in a project without that SDK (`skipLibCheck: false`
 * included). Any client of the SDK fits.
 */
export interface AnthropicClient {
  /** The key the client sends; redacted from every error. */
  readonly apiKey: string | null;
  /** The token the client sends; redacted from every error. */
  readonly authToken: string | null;
  /** The Messages API: `create` takes the SDK's own arguments. */
  readonly messages: { create(body: never, options?: never): unknown };
}

/** Options of {@link anthropic}. */
export interface AnthropicProviderOptions {
  /** API key; the SDK reads `ANTHROPIC_API_KEY` when omitted. Ignored with `client`. */
  readonly apiKey?: string;
  /** Base URL of the API (a proxy or a local test server). Ignored with `client`. */
  readonly baseURL?: string;
  /** Milliseconds before a request times out (the SDK's `timeout`). Ignored with `client`. */
  readonly timeout?: number;
  /**
   * A prebuilt SDK client. Its own retry setting is overridden: every request is sent with
   * `maxRetries: 0`.
   */
  readonly client?: AnthropicClient;
  /**
   * Place prompt-cache breakpoints on the system prompt, the last tool and the last non-ephemeral
   * message, so a retry pays full price only for the ephemeral feedback after them.
   */
  readonly cache?: boolean;
  /** `max_tokens` when a request sets none; the API requires one. Default 4096. */
  readonly maxTokens?: number;
  /**
   * What the models behind this provider support, overriding the built-in table field by field
   * (by default Claude 4.5 and later have both; see `anthropicCapabilities`): `nativeOutput`
   * (`output_config.format`) and `strictTools` (`strict: true` tools). For a proxy or gateway
   * whose model ids the table does not know, or `{ nativeOutput: false }` to keep Keel's own
   * output modes.
   */
  readonly capabilities?: ModelCapabilities;
}

const providerName = 'anthropic';
/** The `@anthropic-ai/sdk` versions this adapter is written for (its optional peer dependency). */
const anthropicSdkRange = '~1.12.0';
/** `max_tokens` when neither the request nor the options set one. */
export const defaultAnthropicMaxTokens = 4096;

/**
 * A Keel model provider on the Anthropic Messages API (official SDK). It never retries: the SDK
 * runs with `maxRetries: 0` so the reliability gate sees, counts and bills every attempt. Errors
 * are thrown as {@link ProviderError} with an exact `errorKind`. The SDK (`@anthropic-ai/sdk`, an
 * optional peer dependency) is loaded on the first call; when it is not installed, that call throws
 * {@link MissingSdkError}.
 *
 * Native structured output: `capabilities(modelId)` says which models take `output_config.format`
 * and strict tools, `lowerSchema` rewrites a schema to what their decoder accepts, and a request
 * with `responseFormat.strict` or a tool with `strict` sends them. A 400 refusing such a schema is
 * a `bad-request` ProviderError with `schemaRejected` set.
 */
export function anthropic(options: AnthropicProviderOptions = {}): ModelProviderV1 {
  checkOptions(providerName, options, ['apiKey', 'baseURL', 'timeout', 'client', 'cache', 'maxTokens', 'capabilities'], REMOVED_OPTIONS);
  const cache = options.cache ?? false;
  const maxTokens = options.maxTokens ?? defaultAnthropicMaxTokens;
  const body = (request: ModelRequest) => mapAnthropicRequest(request, { model: resolveModel(request.model, providerName), maxTokens, cache });

  return sdkProvider<Anthropic>({
    name: providerName,
    label: 'Anthropic',
    secrets: [options.apiKey, options.client?.apiKey, options.client?.authToken],
    declared: options.capabilities,
    connect: async () => {
      const sdk = await loadSdk(() => import('@anthropic-ai/sdk'), { sdk: '@anthropic-ai/sdk', range: anthropicSdkRange, provider: providerName });
      const client =
        (options.client as Anthropic | undefined) ??
        new sdk.default({
          maxRetries: 0,
          ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
          ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
          ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
        });
      return {
        client,
        classes: { userAbort: sdk.APIUserAbortError, connectionTimeout: sdk.APIConnectionTimeoutError, connection: sdk.APIConnectionError },
        secrets: [client.apiKey, client.authToken],
      };
    },
    capabilities: anthropicCapabilities,
    contextWindow: anthropicContextWindow,
    lowerSchema: lowerAnthropicSchema,
    missingKey: /Could not resolve authentication method/,
    schemaRejection: anthropicSchemaRejection,
    generate: async (client, request, requestOptions) => mapAnthropicResponse(await client.messages.create(body(request), requestOptions)),
    async *stream(client, request, requestOptions) {
      yield* mapAnthropicStream(await client.messages.create({ ...body(request), stream: true }, requestOptions), { provider: providerName });
    },
  });
}
