import type { ErrorKind } from '@keel/core';
import { keelError } from '@keel/core/internal';
import { isTransientErrorKind, type SchemaRejection } from '@keel/provider';

/** A provider error as a cassette stores it: what classification reads, never headers or causes. */
export interface RecordedError {
  /** The original error's name, e.g. `ProviderError`. */
  readonly name: string;
  /** Its message, secrets removed. */
  readonly message: string;
  readonly errorKind?: ErrorKind;
  /** Whether the error said it was retryable. */
  readonly retryable?: boolean;
  readonly status?: number;
  /** A socket-level code (`ECONNRESET`...), its own or its cause's. */
  readonly code?: string;
  readonly retryAfterMs?: number;
  readonly schemaRejected?: SchemaRejection;
}

/**
 * A provider error replayed from a cassette. It carries the recorded `name`, message, `errorKind`,
 * `retryable`, `status`, `code`, `retryAfterMs` and `schemaRejected`, so the run classifies, retries and reports it as it
 * did when it was recorded (events show the recorded error name). Tell it apart with `isInstance`.
 */
export class RecordedCallError extends keelError('RecordedCallError') {
  readonly errorKind?: ErrorKind;
  readonly status?: number;
  readonly code?: string;
  readonly retryAfterMs?: number;
  readonly schemaRejected?: SchemaRejection;

  constructor(recorded: RecordedError) {
    super({ message: recorded.message, retryable: recorded.retryable ?? (recorded.errorKind !== undefined && isTransientErrorKind(recorded.errorKind)) });
    this.name = recorded.name;
    if (recorded.errorKind !== undefined) this.errorKind = recorded.errorKind;
    if (recorded.status !== undefined) this.status = recorded.status;
    if (recorded.code !== undefined) this.code = recorded.code;
    if (recorded.retryAfterMs !== undefined) this.retryAfterMs = recorded.retryAfterMs;
    if (recorded.schemaRejected !== undefined) this.schemaRejected = recorded.schemaRejected;
  }
}
