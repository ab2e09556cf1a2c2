import { errorMessageOf, readField, type SchemaRejection } from '@keel/provider';
import type { RecordedError } from '../errors/recorded-call-error';
import type { SecretScrubber } from './scrub-secrets';

const SCHEMA_REJECTIONS: ReadonlySet<string> = new Set<SchemaRejection>(['output', 'tool', 'both']);

/**
 * What a cassette keeps of a provider's error: the fields Keel classifies and reports it by
 * (name, message, `errorKind`, `retryable`, `status`, the socket `code`, `retryAfterMs`,
 * `schemaRejected`), secrets removed. Never headers, bodies or causes. Reads hostile errors
 * safely (a throwing getter reads as absent).
 */
export function recordedErrorOf(error: unknown, scrub: SecretScrubber): RecordedError {
  const name = readField(error, 'name');
  const message = readField(error, 'message');
  const errorKind = readField(error, 'errorKind');
  const retryable = readField(error, 'retryable');
  const status = readField(error, 'status');
  const code = readField(error, 'code') ?? readField(readField(error, 'cause'), 'code');
  const retryAfterMs = readField(error, 'retryAfterMs');
  const schemaRejected = readField(error, 'schemaRejected');
  return {
    name: typeof name === 'string' && name !== '' ? name : 'Error',
    message: scrub.text(typeof message === 'string' ? message : errorMessageOf(error)),
    ...(typeof errorKind === 'string' ? { errorKind: errorKind as NonNullable<RecordedError['errorKind']> } : {}),
    ...(typeof retryable === 'boolean' ? { retryable } : {}),
    ...(typeof status === 'number' ? { status } : {}),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) ? { retryAfterMs } : {}),
    ...(typeof schemaRejected === 'string' && SCHEMA_REJECTIONS.has(schemaRejected) ? { schemaRejected: schemaRejected as SchemaRejection } : {}),
  };
}
