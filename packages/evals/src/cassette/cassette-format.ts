import type { ModelResponse, ModelStreamPart } from '@keel/core';
import type { RecordedError } from '../errors/recorded-call-error';
import type { JsonObject } from './canonical-request';

/** The format version this package writes and reads. */
export const CASSETTE_VERSION = 1;

/** One recorded call: the canonical request, and what answered it. */
export type CassetteInteraction =
  | { readonly call: 'generate'; readonly request: JsonObject; readonly response: ModelResponse }
  | { readonly call: 'generate'; readonly request: JsonObject; readonly error: RecordedError }
  /** A stream: its parts in order, and the error that ended it when it failed. */
  | { readonly call: 'stream'; readonly request: JsonObject; readonly parts: readonly ModelStreamPart[]; readonly error?: RecordedError };

/** A cassette file's content. */
export interface CassetteData {
  readonly keelCassette: typeof CASSETTE_VERSION;
  /** In the order they were recorded. */
  readonly interactions: readonly CassetteInteraction[];
}
