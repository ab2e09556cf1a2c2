import { readField } from '@keel/reliability/internal';
import { type HeaderReader, type HeaderRecord, headerOf } from './parse-retry-after';

/** A `request-id` / `x-request-id` header of headers with `get` (fetch, vendor SDKs) or a plain record. */
function headerRequestId(headers: unknown): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  try {
    const header: unknown = headerOf(headers as HeaderReader | HeaderRecord, 'request-id') ?? headerOf(headers as HeaderReader | HeaderRecord, 'x-request-id');
    return typeof header === 'string' && header !== '' ? header : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The vendor's request id of a failure, for support tickets: its `requestID` / `requestId` /
 * `request_id` field, or a `request-id` / `x-request-id` header of its `headers` or
 * `responseHeaders`. Never throws, whatever the value.
 */
export function requestIdOf(failure: unknown): string | undefined {
  const direct = readField(failure, 'requestID') ?? readField(failure, 'requestId') ?? readField(failure, 'request_id');
  if (typeof direct === 'string' && direct !== '') return direct;
  return headerRequestId(readField(failure, 'headers')) ?? headerRequestId(readField(failure, 'responseHeaders'));
}
