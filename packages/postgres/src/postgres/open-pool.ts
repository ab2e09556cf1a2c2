import pg from 'pg';
import type { PostgresPool } from './postgres-pool';

/** Where a store finds its database: a pool of yours, or a connection string it opens a pool for. */
export type PostgresConnection = { readonly pool: PostgresPool; readonly connectionString?: never } | { readonly connectionString: string; readonly pool?: never };

/** A store's pool, and how to close it: a pool the store opened is ended, a pool it was given is left to its owner. */
export interface OpenedPool {
  readonly pool: PostgresPool;
  close(): Promise<void>;
}

/** The pool `connection` names (checked: exactly one of `pool` and `connectionString`). */
export function openPool(connection: PostgresConnection, timeoutMs: number, owner: string): OpenedPool {
  const { pool, connectionString } = connection as { pool?: PostgresPool; connectionString?: string };
  if (pool !== undefined && connectionString !== undefined) throw new TypeError(`${owner}: give a pool or a connectionString, not both`);
  if (pool !== undefined) {
    if (typeof pool?.query !== 'function' || typeof pool.connect !== 'function') throw new TypeError(`${owner}: pool must be a node-postgres Pool (query and connect)`);
    return { pool, close: () => Promise.resolve() };
  }
  if (typeof connectionString !== 'string' || connectionString === '') throw new TypeError(`${owner}: give a pool or a non-empty connectionString`);
  const opened = new pg.Pool({ connectionString, connectionTimeoutMillis: Math.ceil(timeoutMs) });
  // An idle connection the server dropped is reported here; the next query opens a new one.
  opened.on('error', () => undefined);
  return { pool: opened, close: () => opened.end() };
}
