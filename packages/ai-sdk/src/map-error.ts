import { APICallError, AISDKError } from '@ai-sdk/provider';
import {
  errorMessageOf,
  type Fail,
  type HeaderRecord,
  httpFailure,
  isTransientErrorKind,
  mapVendorError,
  type ProviderError,
  readField,
  type SchemaRejection,
  socketFailureKind,
  statusFailure,
  type StrictParts,
} from '@keel/provider';
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

/**
 * Turns whatever an AI SDK model threw (or put in a stream `error` part) into a `ProviderError`
 * with `mapVendorError` (aborts first, then vendor error objects, socket failures), reading the AI
 * SDK's own errors before the common readings:
 * - `APICallError` with an HTTP error status: the kind of the status (`httpFailure`), the delay
 *   from `retry-after-ms` / `retry-after` (or Gemini's `RetryInfo` in the body); `isRetryable` is
 *   honoured both ways: `false` makes the error not retryable, `true` on a status Keel would not
 *   retry (409) makes it a `server-error`;
 * - `APICallError` with a 2xx status (a body that did not parse) and the AI SDK's response errors
 *   (no content, invalid response data, empty body, JSON parse, type validation): `bad-response`;
 * - `APICallError` without a status (no response), or whose body broke off (a socket error under
 *   a 200 stream): `network`, or `timeout` for `ETIMEDOUT`;
 * - a 400, or the provider package refusing the request, that is about a strict schema the
 *   request sent carries `schemaRejected` (`output`, `tool`, `both`), so core changes output mode;
 * - invalid prompt or argument, unsupported functionality, unknown model: `bad-request`; a missing
 *   API key: `auth`.
 * Never the AI SDK's error object as cause: its request body and headers stay out.
 */
export function mapAiSdkError(error: unknown, context: MapErrorContext): ProviderError {
  /** Which strict schema a refusal is about, from its message and body. */
  const rejection = (body: unknown) => (context.sent === undefined ? undefined : schemaRejectionOf(`${errorMessageOf(error)}\n${bodyText(body)}`, context.sent));
  return mapVendorError(error, { ...context, label: context.provider, read: (thrown, fail) => readApiCallError(thrown, fail, rejection) ?? readSdkError(thrown, fail, rejection) });
}

/** The reading of an `APICallError`: by its status, its body and `isRetryable`. */
function readApiCallError(error: unknown, fail: Fail, rejection: (body: unknown) => SchemaRejection | undefined): ProviderError | undefined {
  if (!is((value) => APICallError.isInstance(value), error)) return undefined;
  const status = readField(error, 'statusCode');
  const isRetryable = readField(error, 'isRetryable') === true;
  // A body cut off mid-way (the socket closed under a 200 stream) is the connection's fault.
  const causeKind = socketFailureKind(readField(error, 'cause'));
  if (causeKind !== undefined && (typeof status !== 'number' || status < 300)) {
    return fail(causeKind, causeKind === 'timeout' ? 'request timed out' : 'connection failed', typeof status === 'number' ? { status } : {});
  }
  if (typeof status === 'number' && status >= 200 && status < 300) return fail('bad-response', `the response (HTTP ${status}) could not be read`, { status });
  if (typeof status !== 'number') return fail(isRetryable ? 'network' : 'unknown', isRetryable ? 'no response' : 'request failed');
  const body = readField(error, 'responseBody');
  const texts = [errorMessageOf(error), bodyText(body)];
  const headers = readField(error, 'responseHeaders');
  const failure = statusFailure(status, texts, headers as HeaderRecord | undefined);
  const errorKind = failure.errorKind !== 'context-overflow' && isRetryable && !isTransientErrorKind(failure.errorKind) ? 'server-error' : failure.errorKind;
  return httpFailure(fail, status, { texts, headers, errorKind, retryAfterMs: retryAfterFromGoogleBody(body), retryable: isRetryable, schemaRejection: () => rejection(body) });
}

/** The reading of the AI SDK's other errors, by name. */
function readSdkError(error: unknown, fail: Fail, rejection: (body: unknown) => SchemaRejection | undefined): ProviderError | undefined {
  const name = readField(error, 'name');
  if (!is((value) => AISDKError.isInstance(value), error) || typeof name !== 'string') return undefined;
  if (BAD_RESPONSE_ERRORS.has(name)) return fail('bad-response', 'the response is malformed');
  if (BAD_REQUEST_ERRORS.has(name)) return fail('bad-request', 'the request was refused by the provider package', { schemaRejected: rejection(undefined) });
  if (name === 'AI_LoadAPIKeyError') return fail('auth', 'no API key');
  return undefined;
}
