import { type LoweredSchema, type ModelCallOptions, type ModelCapabilities, type ModelProviderV1, type ModelRequest, type ModelResponse, type ModelStreamPart, type ProviderError, redactSecrets, type SchemaRejection, secretsOf, type StrictParts, strictPartsOf } from '@keel/provider';
import { MissingSdkError } from '../errors/missing-sdk-error';
import { checkDeclaredCapabilities, resolveCapabilities } from './declared-capabilities';
import { mapSdkError, type SdkErrorClasses } from './map-sdk-error';
import { sdkRequestOptions } from './request-options';

/** A vendor SDK client, made once the SDK has loaded. */
export interface SdkConnection<Client> {
  readonly client: Client;
  /** The SDK's error classes, to tell aborts, timeouts and connection failures apart. */
  readonly classes: SdkErrorClasses;
  /** The key (and token) the client sends, however it was given: redacted from every error. */
  readonly secrets: readonly (string | null | undefined)[];
}

/** What differs per vendor; {@link sdkProvider} does the rest. */
export interface SdkAdapter<Client> {
  /** The provider's name, e.g. `anthropic`. */
  readonly name: string;
  /** The vendor's name in messages, e.g. `Anthropic`. */
  readonly label: string;
  /** Secrets known before the SDK loads (the `apiKey` option, a prebuilt client's key). */
  readonly secrets: readonly (string | null | undefined)[];
  /** The `capabilities` option, checked at construction. */
  readonly declared: unknown;
  /** Loads the SDK (an optional peer dependency) and makes the client, with `maxRetries: 0`. */
  readonly connect: () => Promise<SdkConnection<Client>>;
  /** The built-in capability table. */
  readonly capabilities: (modelId: string) => ModelCapabilities;
  /** The built-in context-window table. */
  readonly contextWindow: (modelId: string) => number | undefined;
  /** The vendor decoder's schema lowering. */
  readonly lowerSchema: (schema: Readonly<Record<string, unknown>>, purpose: 'output' | 'tool') => LoweredSchema | undefined;
  /** What the SDK says when it has no key (at construction or before sending): read as `auth`. */
  readonly missingKey: RegExp;
  /** Reads a 400 for a refused strict schema. */
  readonly schemaRejection: (error: unknown, sent: StrictParts) => SchemaRejection | undefined;
  /** One call through the SDK. */
  readonly generate: (client: Client, request: ModelRequest, options: { maxRetries: 0; signal?: AbortSignal }) => Promise<ModelResponse>;
  /** One streamed call through the SDK. */
  readonly stream: (client: Client, request: ModelRequest, options: { maxRetries: 0; signal?: AbortSignal }) => AsyncIterable<ModelStreamPart>;
}

/** Error classes no error is an instance of: before the SDK loaded, none of its classes are known. */
class NoSdkError {}
const noClasses: SdkErrorClasses = { userAbort: NoSdkError, connectionTimeout: NoSdkError, connection: NoSdkError };

/**
 * A Keel model provider on a vendor's official SDK: the SDK is loaded on the first call (started
 * at once, so that call does not wait; a failure is reported by it), every call is sent with
 * `maxRetries: 0`, every failure is thrown as a `ProviderError` (a 400 that refused a strict
 * schema with `schemaRejected`), and the client's key is redacted from every error and from
 * `redact`. Capabilities are the adapter's table, overridden field by field by the declared ones.
 */
export function sdkProvider<Client>(adapter: SdkAdapter<Client>): ModelProviderV1 {
  const declared = checkDeclaredCapabilities(adapter.name, adapter.declared);
  let secrets = secretsOf(adapter.secrets);
  let connection: Promise<SdkConnection<Client>> | undefined;
  const connect = () =>
    (connection ??= adapter.connect().then((made) => {
      secrets = secretsOf([...made.secrets, ...secrets]);
      return made;
    }));
  connect().catch(() => undefined);

  const toError = (error: unknown, signal: AbortSignal | undefined, classes: SdkErrorClasses, request: ModelRequest): ProviderError => {
    const sent = strictPartsOf(request);
    const schemaRejection = (thrown: unknown) => adapter.schemaRejection(thrown, sent);
    return mapSdkError(error, { provider: adapter.name, label: adapter.label, signal, secrets, classes, schemaRejection, missingKey: adapter.missingKey });
  };
  /** The connection, or the reason there is none: a missing SDK as it is, anything else (no key) as a `ProviderError`. */
  const connected = async (request: ModelRequest, signal: AbortSignal | undefined): Promise<SdkConnection<Client>> => {
    try {
      return await connect();
    } catch (error) {
      if (MissingSdkError.isInstance(error)) throw error;
      throw toError(error, signal, noClasses, request);
    }
  };

  return {
    specificationVersion: 'v1',
    name: adapter.name,
    redact: (text: string) => redactSecrets(text, secrets),
    capabilities: (modelId: string) => resolveCapabilities(adapter.capabilities(modelId), adapter.contextWindow(modelId), declared),
    lowerSchema: adapter.lowerSchema,

    async generate(request: ModelRequest, callOptions: ModelCallOptions): Promise<ModelResponse> {
      const { signal } = callOptions;
      const { client, classes } = await connected(request, signal);
      try {
        return await adapter.generate(client, request, sdkRequestOptions(signal));
      } catch (error) {
        throw toError(error, signal, classes, request);
      }
    },

    async *stream(request: ModelRequest, callOptions: ModelCallOptions): AsyncGenerator<ModelStreamPart, void, undefined> {
      const { signal } = callOptions;
      const { client, classes } = await connected(request, signal);
      try {
        yield* adapter.stream(client, request, sdkRequestOptions(signal));
      } catch (error) {
        throw toError(error, signal, classes, request);
      }
    },
  };
}
