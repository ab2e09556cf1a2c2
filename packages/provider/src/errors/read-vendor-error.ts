import { kindFromNetworkCode, kindFromStatus, readField } from '@keel/reliability/internal';
import { type ErrorTypeKind, kindFromErrorType } from './kind-from-error-type';
import { type HeaderReader, type HeaderRecord, parseRetryAfter } from './parse-retry-after';
import { isContextOverflow } from './context-overflow';

/** `instanceof` that a Proxy with a throwing `getPrototypeOf` trap cannot break. */
export function isInstanceOf(value: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/** True for an abort by any library's spelling: `name: 'AbortError'` or `code: 'ABORT_ERR'`. */
export function isAbortLike(error: unknown): boolean {
  return readField(error, 'name') === 'AbortError' || readField(error, 'code') === 'ABORT_ERR';
}

/**
 * The kind of a socket-level failure below a vendor SDK (refused, reset, the body stream broken
 * mid-way), read down the `cause` chain: by the one list of network error codes Keel classifies
 * with (`timeout` for `ETIMEDOUT`, else `network`), a `TimeoutError`, or fetch's `TypeError`s
 * (`terminated`, `fetch failed`). `undefined` when it is none of these.
 */
export function socketFailureKind(error: unknown): 'network' | 'timeout' | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; current = readField(current, 'cause'), depth += 1) {
    const codeKind = kindFromNetworkCode(readField(current, 'code'));
    if (codeKind !== undefined) return codeKind;
    const name = readField(current, 'name');
    if (name === 'TimeoutError') return 'timeout';
    const message = readField(current, 'message');
    const isTypeError = name === 'TypeError' || isInstanceOf(current, TypeError);
    if (isTypeError && typeof message === 'string' && /terminated|fetch failed|socket|network/i.test(message)) return 'network';
  }
  return undefined;
}

/**
 * The failure kind a vendor error object names where there is no HTTP status (a stream's `error`
 * event, an error body): its `type`, `status` or `code`, at the top or under `error` (twice, as
 * the Anthropic SDK nests its body), read with {@link kindFromErrorType}. `undefined` when none
 * names a known kind.
 */
export function vendorErrorKind(error: unknown): { readonly errorKind: ErrorTypeKind; readonly type: string } | undefined {
  const body = readField(error, 'error');
  for (const candidate of [error, body, readField(body, 'error')]) {
    for (const field of ['type', 'status', 'code']) {
      const type = readField(candidate, field);
      if (typeof type !== 'string') continue;
      const errorKind = kindFromErrorType(type);
      if (errorKind !== undefined) return { errorKind, type };
    }
  }
  return undefined;
}

/**
 * What a vendor's HTTP error status means, the same for every adapter: `context-overflow` for a
 * 400 or 413 whose code, message or body (`texts`) says the request does not fit the model's
 * context window, else the kind of the status ({@link kindFromStatus}); with the delay the server
 * asked for in `retry-after-ms` or `retry-after`.
 */
export function statusFailure(
  status: number,
  texts: readonly unknown[],
  headers: HeaderReader | HeaderRecord | undefined,
): { readonly errorKind: ReturnType<typeof kindFromStatus> | 'context-overflow'; readonly retryAfterMs: number | undefined } {
  const overflow = (status === 400 || status === 413) && isContextOverflow(...texts);
  return { errorKind: overflow ? 'context-overflow' : kindFromStatus(status), retryAfterMs: parseRetryAfter(headers) };
}
