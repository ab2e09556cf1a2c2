import { keelError } from '@keel/reliability/internal';

/**
 * What went wrong with PostgreSQL: `unavailable`, it did not answer in time, could not be
 * reached, or refused for a reason that passes (a server shutting down or starting, too many
 * connections, a serialization failure or deadlock; retryable: the server may come back);
 * `refused`, it answered, and what Keel asked cannot succeed by waiting (a table Keel uses changed
 * by hand, a missing permission, a row holding what Keel did not write; not retryable).
 */
export type PostgresProblem = 'unavailable' | 'refused';

/** Constructor fields of {@link PostgresError}, by problem. */
export type PostgresErrorOptions = { readonly operation: string; readonly message: string; readonly cause?: unknown } & (
  | { readonly problem: 'unavailable' }
  | { readonly problem: 'refused'; readonly code?: string; readonly table?: string }
);

/**
 * PostgreSQL failed a Keel operation, as its `problem` says; only `unavailable` is retryable. A
 * `refused` error carries PostgreSQL's SQLSTATE in `code` (empty when the row, not the server,
 * was at fault) and the table concerned in `table`, when known. The memory store reports a
 * `refused` error as the cause of a `MemoryStoreError`.
 */
export class PostgresError extends keelError('PostgresError') {
  readonly problem: PostgresProblem;
  /** What was being done, e.g. `run store append`, `memory load`, `migrate`. */
  readonly operation: string;
  /** The SQLSTATE PostgreSQL answered with, e.g. `42501` (permission denied) (`refused`; empty when it was a row Keel cannot read). */
  readonly code?: string;
  /** The table concerned, schema-qualified when Keel names it (`refused`; empty when unknown). */
  readonly table?: string;

  constructor(options: PostgresErrorOptions) {
    const { problem, operation, message, cause } = options;
    if (problem === 'unavailable') {
      super({ message: `PostgreSQL unavailable during ${operation}: ${message}`, cause, retryable: true });
    } else {
      const table = options.table ?? '';
      super({ message: `PostgreSQL refused ${operation}${table === '' ? '' : ` on ${table}`}: ${message}`, cause, retryable: false });
      this.code = options.code ?? '';
      this.table = table;
    }
    this.problem = problem;
    this.operation = operation;
  }
}
