/**
 * `@keel/provider`: Keel's model provider specification and the stable kit for provider authors.
 * An adapter implements {@link ModelProviderV1} with these types and helpers, and throws one error,
 * {@link ProviderError}. Depends on `@keel/reliability` only; never on `@keel/core`.
 */

// The specification, version 1 (types only).
export type {
  FinishReason,
  LoweredSchema,
  ModelCallErrorShape,
  ModelCallOptions,
  ModelCapabilities,
  ModelProvider,
  ModelProviderV1,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ResponseFormat,
  SchemaRejection,
  ToolChoice,
  ToolSpecification,
} from './spec/model-provider-v1';
/** Token counts of one call: the one usage type, from `@keel/reliability`. */
export type { TokenUsage } from '@keel/reliability';
export type {
  AssistantMessage,
  AttachmentPart,
  AttachmentSource,
  FilePart,
  ImagePart,
  Message,
  SystemMessage,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from './spec/message';
export { textOf, toolCallsOf } from './spec/message';

// The one provider error, its factory, and the error mapping every adapter shares.
export { ProviderError, type ProviderErrorKind, type ProviderErrorOptions } from './errors/provider-error';
export type { ProviderErrorCause } from './errors/provider-error-cause';
export { type FailureContext, type FailureDetails, providerFailure } from './errors/provider-failure';
export { type Fail, httpFailure, mapVendorError, type MapVendorErrorContext } from './errors/map-vendor-error';
export { badResponse, shapeOf } from './errors/bad-response';
export { refuseContextWindowStop } from './errors/refuse-context-window-stop';
export { requestIdOf } from './errors/request-id-of';
export { isAbortLike, isInstanceOf, socketFailureKind, statusFailure, vendorErrorKind } from './errors/read-vendor-error';
export { isContextOverflow, isContextWindowStop } from './errors/context-overflow';
export { type ErrorTypeKind, kindFromErrorType } from './errors/kind-from-error-type';
export { type HeaderReader, type HeaderRecord, parseRetryAfter } from './errors/parse-retry-after';

// Helpers for the request and the response.
export { attachmentSource, attachmentUrl, type AttachmentWire } from './kit/attachments';
export { CONTINUE_INSTRUCTION, withContinuation } from './kit/continuation';
export { finishPart, type ResponseFields, responseOf } from './kit/finish-part';
export type { DecoderDialect, LoweringOutcome, SchemaStats } from './kit/lower-json-schema/decoder-dialect';
export { lowerJsonSchema, schemaLowerer } from './kit/lower-json-schema/lower-json-schema';
export { escapePointer } from './kit/lower-json-schema/schema-pointer';
export { REDACTED, redactSecrets, secretsOf } from './kit/redact-secrets';
export { firstString, type RefusalNames, schemaRejectionFor, type StrictParts, strictPartsOf } from './kit/strict-parts';
export { toolInputOf } from './kit/tool-input-of';

// The error vocabulary of @keel/reliability an adapter classifies with (one copy, re-exported).
export { type ErrorKind, KeelError } from '@keel/reliability';
export {
  errorMessageOf,
  hasMarker,
  isTransientErrorKind,
  type LocalReference,
  parseLocalReference,
  raceSignal,
  readField,
  TRANSIENT_ERROR_KINDS,
} from '@keel/reliability/internal';
