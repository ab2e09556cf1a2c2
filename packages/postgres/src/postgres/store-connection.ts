import { schemaReadiness } from '../migrations/schema-readiness';
import { boundedQuery } from './bounded-query';
import { openPool, type PostgresConnection } from './open-pool';
import type { PostgresResult } from './postgres-pool';
import { quotedSchema } from './schema-name';

/** Where a PostgreSQL store keeps its tables, and how long one call may take. */
export type PostgresStoreOptions = PostgresConnection & {
  /** The schema of Keel's tables, created when missing. An identifier; default `keel`. */
  readonly schema?: string;
  /** Longest wait for one database call. Default 5 000. */
  readonly timeoutMs?: number;
};

/** What every PostgreSQL store gives beside its own contract. */
export interface PostgresStoreHandle {
  /** Runs the schema's migrations now (the first call needing the tables runs them otherwise): at deploy time, say. */
  migrate(): Promise<void>;
  /** Ends the pool the store opened from a `connectionString`; a pool you gave it is yours to end. */
  close(): Promise<void>;
}

/** A store's connection: its checked settings, and a query that first makes sure the tables exist. */
export interface StoreConnection extends PostgresStoreHandle {
  /** The quoted schema, for SQL. */
  readonly schema: string;
  readonly timeoutMs: number;
  /** Runs one statement, bounded by `timeoutMs` (and `signal`), after the migrations. */
  query(operation: string, text: string, values: unknown[], signal?: AbortSignal): Promise<PostgresResult>;
}

/** Checks a store's options (a `TypeError` naming what is wrong) and opens its connection. */
export function storeConnection(options: PostgresStoreOptions, owner: string): StoreConnection {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${owner}: options must be an object`);
  const { schema: name = 'keel', timeoutMs = 5_000 } = options;
  const schema = quotedSchema(name, owner);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError(`${owner}: timeoutMs must be a finite number > 0, got ${timeoutMs}`);
  const { pool, close } = openPool(options, timeoutMs, owner);
  const ready = schemaReadiness(pool, name, schema, timeoutMs);
  return {
    schema,
    timeoutMs,
    migrate: ready,
    close,
    async query(operation, text, values, signal) {
      await ready();
      return boundedQuery(() => pool.query(text, values), { operation, timeoutMs, signal });
    },
  };
}
