import type Anthropic from '@anthropic-ai/sdk';
import type { ModelRequest, ModelResponse, ModelStreamPart } from '@keel/core';
import { type ModelCallOptions, type ModelCapabilities, type ModelProviderV1, redactSecrets, secretsOf } from '@keel/core/internal';
import { checkDeclaredCapabilities, resolveCapabilities } from '../shared/declared-capabilities';
import { loadSdk } from '../shared/load-sdk';
import { strictPartsOf, type StrictParts } from '../shared/strict-parts';
import { anthropicCapabilities } from './anthropic-capabilities';
import { lowerAnthropicSchema } from './lower-schema';
import { checkOptions, REMOVED_OPTIONS } from '../shared/check-options';
import { resolveModel } from '../shared/resolve-model';
import { mapAnthropicError } from './map-anthropic-error';
import { mapAnthropicRequest } from './map-request';
import { mapAnthropicResponse } from './map-response';
import { mapAnthropicStream } from './map-stream';
import { sdkRequestOptions } from '../shared/request-options';

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

interface Connection {
  readonly client: Anthropic;
  readonly toError: (error: unknown, signal: AbortSignal | undefined, sent: StrictParts) => Error;
}
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
  const declared = checkDeclaredCapabilities(providerName, options.capabilities);
  const cache = options.cache ?? false;
  const maxTokens = options.maxTokens ?? defaultAnthropicMaxTokens;

  const body = (request: ModelRequest) =>
    mapAnthropicRequest(request, { model: resolveModel(request.model, providerName), maxTokens, cache });

  // The secrets known now (the option, a prebuilt client's); the client's own once it is made.
  let secrets = secretsOf([options.apiKey, options.client?.apiKey, options.client?.authToken]);

  // The SDK is loaded on the first call: it is an optional peer dependency.
  let connection: Promise<Connection> | undefined;
  const connect = () =>
    (connection ??= loadSdk(() => import('@anthropic-ai/sdk'), { sdk: '@anthropic-ai/sdk', range: anthropicSdkRange, provider: providerName }).then((sdk) => {
      const client =
        (options.client as Anthropic | undefined) ??
        new sdk.default({
          maxRetries: 0,
          ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
          ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
          ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
        });
      // The key the client sends, however it was given (option, environment, prebuilt client): redacted from every error.
      secrets = secretsOf([client.apiKey, client.authToken, ...secrets]);
      const classes = { userAbort: sdk.APIUserAbortError, connectionTimeout: sdk.APIConnectionTimeoutError, connection: sdk.APIConnectionError };
      return {
        client,
        toError: (error: unknown, signal: AbortSignal | undefined, sent: StrictParts) => mapAnthropicError(error, { provider: providerName, signal, secrets, classes, sent }),
      };
    }));

  // Start loading now, so the first call does not wait for it; a failure is reported by that call.
  connect().catch(() => undefined);

  return {
    specificationVersion: 'v1',
    name: providerName,

    redact: (text: string) => redactSecrets(text, secrets),

    capabilities: (modelId: string) => resolveCapabilities(anthropicCapabilities(modelId), declared),

    lowerSchema: lowerAnthropicSchema,

    async generate(request: ModelRequest, callOptions: ModelCallOptions): Promise<ModelResponse> {
      const { signal } = callOptions;
      const { client, toError } = await connect();
      try {
        const message = await client.messages.create(body(request), sdkRequestOptions(signal));
        return mapAnthropicResponse(message);
      } catch (error) {
        throw toError(error, signal, strictPartsOf(request));
      }
    },

    async *stream(request: ModelRequest, callOptions: ModelCallOptions): AsyncGenerator<ModelStreamPart, void, undefined> {
      const { signal } = callOptions;
      const { client, toError } = await connect();
      try {
        const events = await client.messages.create({ ...body(request), stream: true }, sdkRequestOptions(signal));
        yield* mapAnthropicStream(events, { provider: providerName });
      } catch (error) {
        throw toError(error, signal, strictPartsOf(request));
      }
    },
  };
}
