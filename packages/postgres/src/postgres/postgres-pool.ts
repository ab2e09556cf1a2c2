/** What one query returns: its rows (each an object keyed by column name). */
export interface PostgresResult {
  readonly rows: readonly Record<string, unknown>[];
}

/** A connection that runs queries (a `pg` client). */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<PostgresResult>;
}

/** A connection taken from a pool, given back with `release`. */
export interface PostgresPoolClient extends PostgresQueryable {
  release(error?: Error | boolean): void;
}

/**
 * The part of a node-postgres `Pool` (`import { Pool } from 'pg'`) Keel uses: `query`, and
 * `connect` for the migrations' transaction. Any pool of that shape works.
 */
export interface PostgresPool extends PostgresQueryable {
  connect(): Promise<PostgresPoolClient>;
}
