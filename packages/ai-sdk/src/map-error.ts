import { APICallError, AISDKError } from '@ai-sdk/provider';
import {
  errorMessageOf,
  type HeaderRecord,
  isAbortLike,
  isContextOverflow,
  isTransientErrorKind,
  kindFromStatus,
  parseRetryAfter,
  readField,
  redactSecrets,
  type SchemaRejection,
  socketFailureKind,
  type StrictParts,
  vendorErrorKind,
} from '@keel/core/internal';
import { type AiSdkErrorCause, type AiSdkErrorKind, AiSdkProviderError } from './ai-sdk-provider-error';
import { retryAfterFromGoogleBody } from './google-retry-info';
import { schemaRejectionOf } from './schema-rejection';

/** What {@link mapAiSdkError} needs to know about the failed call. */
export interface MapErrorContext {
  /** The model's provider id, e.g. `google.generative-ai`. */
  readonly provider: string;
  /** The caller's signal: once it has aborted, any failure is `aborted`. */
  readonly signal?: AbortSignal | undefined;
  /** Strings (API keys) replaced by `[redacted]` in the message and cause. */
  readonly secrets: readonly string[];
  /** The strict schemas the request sent, to tell a 400 that refused one. */
  readonly sent?: StrictParts | undefined;
}

/** An `isInstance` test that a hostile value cannot make throw. */
function is(test: (value: unknown) => boolean, value: unknown): boolean {
  try {
    return test(value);
  } catch {
    return false;
  }
}

/** The AI SDK errors that mean the provider's answer broke its format (retried like a server fault). */
const BAD_RESPONSE_ERRORS = new Set(['AI_NoContentGeneratedError', 'AI_InvalidResponseDataError', 'AI_EmptyResponseBodyError', 'AI_JSONParseError', 'AI_TypeValidationError']);
/** The AI SDK errors that mean the request cannot be sent as it is (never retried). */
const BAD_REQUEST_ERRORS = new Set(['AI_InvalidPromptError', 'AI_InvalidArgumentError', 'AI_UnsupportedFunctionalityError', 'AI_NoSuchModelError', 'AI_LoadSettingError']);

/** The start of an error's response body, as text (a body can be as large as the request it echoes). */
function bodyText(body: unknown): string {
  return typeof body === 'string' ? body.slice(0, 65_536) : '';
}

function requestIdOf(headers: unknown): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (/^(x-)?request-id$/i.test(name) && typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/**
 * Turns whatever an AI SDK model threw (or put in a stream `error` part) into an
 * {@link AiSdkProviderError}:
 * - once the caller's signal has aborted, anything is `aborted`;
 * - `APICallError` with an HTTP error status: the kind of the status (429 `rate-limit`, 529
 *   `overloaded`, 5xx `server-error`, 401/403 `auth`, other 4xx `bad-request`), the delay from
 *   `retry-after-ms` / `retry-after` (or Gemini's `RetryInfo` in the body); `isRetryable` is
 *   honoured both ways: `false` makes the error not retryable, `true` on a status Keel would not
 *   retry (409) makes it a `server-error`;
 * - `APICallError` with a 2xx status (a body that did not parse) and the AI SDK's response errors
 *   (no content, invalid response data, empty body, JSON parse, type validation): `bad-response`;
 * - `APICallError` without a status (no response), or whose body broke off (a socket error under
 *   a 200 stream): `network`, or `timeout` for `ETIMEDOUT`;
 * - a 400, or the provider package refusing the request, that is about a strict schema the
 *   request sent carries `schemaRejected` (`output`, `tool`, `both`), so core changes output mode;
 * - invalid prompt or argument, unsupported functionality, unknown model: `bad-request`; a missing
 *   API key: `auth`; vendor error objects of a stream by their `type` or `status`.
 * Never the AI SDK's error object as cause: its request body and headers stay out.
 */
export function mapAiSdkError(error: unknown, context: MapErrorContext): AiSdkProviderError {
  const { provider, signal, secrets } = context;
  if (AiSdkProviderError.isInstance(error) && (signal?.aborted !== true || error.errorKind === 'aborted')) return error;
  const name = readField(error, 'name');
  const make = (errorKind: AiSdkErrorKind, problem: string, extra: { status?: number; retryAfterMs?: number; retryable?: boolean; headers?: unknown; schemaRejected?: SchemaRejection | undefined } = {}) => {
    const message = redactSecrets(errorMessageOf(error), secrets);
    const requestId = requestIdOf(extra.headers);
    const cause: AiSdkErrorCause = {
      name: typeof name === 'string' && name !== '' ? redactSecrets(name, secrets) : 'Error',
      message,
      ...(extra.status === undefined ? {} : { status: extra.status }),
      ...(requestId === undefined ? {} : { requestId: redactSecrets(requestId, secrets) }),
    };
    return new AiSdkProviderError({
      message: `${provider}: ${problem}: ${message}`,
      errorKind,
      provider,
      cause,
      ...(extra.status === undefined ? {} : { status: extra.status }),
      ...(extra.retryAfterMs === undefined ? {} : { retryAfterMs: extra.retryAfterMs }),
      ...(extra.retryable === undefined ? {} : { retryable: extra.retryable }),
      ...(extra.schemaRejected === undefined ? {} : { schemaRejected: extra.schemaRejected }),
    });
  };
  /** Which strict schema a refusal is about, from its message and body. */
  const rejection = (body: unknown) => {
    if (context.sent === undefined) return undefined;
    const text = `${errorMessageOf(error)}\n${bodyText(body)}`;
    return schemaRejectionOf(text, context.sent);
  };

  if (signal?.aborted === true || isAbortLike(error)) return make('aborted', 'the request was aborted');

  if (is((value) => APICallError.isInstance(value), error)) {
    const status = readField(error, 'statusCode');
    const headers = readField(error, 'responseHeaders');
    const isRetryable = readField(error, 'isRetryable') === true;
    // A body cut off mid-way (the socket closed under a 200 stream) is the connection's fault.
    const causeKind = socketFailureKind(readField(error, 'cause'));
    if (causeKind !== undefined && (typeof status !== 'number' || status < 300)) {
      return make(causeKind, causeKind === 'timeout' ? 'the request timed out' : 'the connection failed', typeof status === 'number' ? { status, headers } : {});
    }
    if (typeof status === 'number' && status >= 200 && status < 300) {
      return make('bad-response', `the response (HTTP ${status}) could not be read`, { status, headers });
    }
    if (typeof status === 'number') {
      const overflow = (status === 400 || status === 413) && isContextOverflow(errorMessageOf(error), bodyText(readField(error, 'responseBody')));
      const statusKind = kindFromStatus(status);
      const kind: AiSdkErrorKind = overflow ? 'context-overflow' : isRetryable && !isTransientErrorKind(statusKind) ? 'server-error' : statusKind;
      const retryAfterMs = parseRetryAfter(headers as HeaderRecord | undefined) ?? retryAfterFromGoogleBody(readField(error, 'responseBody'));
      const schemaRejected = status === 400 && !overflow ? rejection(readField(error, 'responseBody')) : undefined;
      return make(kind, `HTTP ${status} (${kind})`, { status, headers, retryable: isRetryable, schemaRejected, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
    }
    return make(isRetryable ? 'network' : 'unknown', isRetryable ? 'no response' : 'the request failed');
  }

  if (is((value) => AISDKError.isInstance(value), error) && typeof name === 'string') {
    if (BAD_RESPONSE_ERRORS.has(name)) return make('bad-response', 'the response is malformed');
    if (BAD_REQUEST_ERRORS.has(name)) return make('bad-request', 'the request was refused by the provider package', { schemaRejected: rejection(undefined) });
    if (name === 'AI_LoadAPIKeyError') return make('auth', 'no API key');
  }

  const vendor = vendorErrorKind(error);
  if (vendor !== undefined) return make(vendor.errorKind, `the provider reported ${vendor.type} (${vendor.errorKind})`);
  const socketKind = socketFailureKind(error);
  if (socketKind !== undefined) return make(socketKind, socketKind === 'timeout' ? 'the request timed out' : 'the connection failed');
  return make('unknown', 'the call failed');
}
