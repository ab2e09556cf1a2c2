import { type RunStore, StaleRunOwnerError } from '@keel/core';
import { storedKey } from '../postgres/stored-key';
import { type PostgresStoreHandle, type PostgresStoreOptions, storeConnection } from '../postgres/store-connection';
import { checkAppend, checkLease, checkStoreKey as checkKey } from '@keel/core/internal';
import { acquireAtSql, acquireAtStartSql, acquireSql, appendSql, claimSql, loadSql, releaseSql, sweepClaimsSql } from './run-store-statements';
import { storedRunOf } from './stored-run-row';

/** Settings of {@link postgresRunStore}: a `pool` (node-postgres) or a `connectionString`, and optionally the `schema` and `timeoutMs`. */
export type PostgresRunStoreOptions = PostgresStoreOptions;

/** A run store on PostgreSQL, with its migrations and its pool at hand. */
export interface PostgresRunStore extends RunStore, PostgresStoreHandle {}

const NAME = 'postgresRunStore';
/** Claims between two sweeps of the claims whose time is up. */
const SWEEP_EVERY = 1024;
const CENTURY_MS = 100 * 365.25 * 86_400_000;

/**
 * A {@link RunStore} on PostgreSQL, shared by every process that reaches the database. A run is a
 * row of `runs` (its fence, version, agent, tenant and status) and its journal the rows of
 * `run_entries`, one per entry, the JSON text it was handed (`text`, so read back byte for byte).
 * Each operation is one statement: `acquire` raises the fence in an upsert; an append updates the
 * run's row only while its fence is the writer's and inserts the entries in the same statement (a
 * stale owner's append is refused with `StaleRunOwnerError`, nothing written); `acquireAt`
 * raises the fence only while the version is the one read; a claim is an upsert that takes a row
 * only when it is new or its time is up. The tables are created by versioned migrations the
 * store runs itself on first use (`migrate()` runs them now). Bad input fails with a `TypeError`
 * before anything is sent; a server that cannot be reached with a `PostgresError`
 * `unavailable` (retryable); a table changed by hand or a row Keel did not write with `refused`.
 */
export function postgresRunStore(options: PostgresRunStoreOptions): PostgresRunStore {
  const connection = storeConnection(options, NAME);
  const { schema } = connection;
  const query = (operation: string, text: string, values: unknown[]) => connection.query(`run store ${operation}`, text, values);
  let claims = 0;
  return {
    shared: true,
    migrate: connection.migrate,
    close: connection.close,
    async acquire(runId) {
      checkKey(runId, 'a run id', NAME);
      const { rows } = await query('acquire', acquireSql(schema), [storedKey(runId)]);
      return { runId, fence: Number(rows[0]?.fence) };
    },
    async acquireAt(runId, version) {
      checkKey(runId, 'a run id', NAME);
      if (typeof version !== 'number') throw new TypeError(`${NAME}: a version must be a number, got ${typeof version}`);
      // No journal has a version that is not a whole number >= 0.
      if (!Number.isSafeInteger(version) || version < 0) return undefined;
      const { rows } = version === 0 ? await query('acquire', acquireAtStartSql(schema), [storedKey(runId)]) : await query('acquire', acquireAtSql(schema), [storedKey(runId), version]);
      return rows[0] === undefined ? undefined : { runId, fence: Number(rows[0].fence) };
    },
    async append(lease, append) {
      const { runId, fence } = checkLease(lease, NAME);
      const { agentId, tenant, status, texts } = checkAppend(append, NAME);
      const { rows } = await query('append', appendSql(schema), [storedKey(runId), fence, texts, agentId, tenant ?? null, status]);
      if (rows[0] === undefined) throw new StaleRunOwnerError({ runId, fence });
      return Number(rows[0].version);
    },
    async load(runId) {
      checkKey(runId, 'a run id', NAME);
      const { rows } = await query('load', loadSql(schema), [storedKey(runId)]);
      return storedRunOf(runId, schema, rows[0]);
    },
    async claim(key, ttlMs) {
      checkKey(key, 'a claim key', NAME);
      if (typeof ttlMs !== 'number' || Number.isNaN(ttlMs)) throw new TypeError(`${NAME}: a claim's ttlMs must be a number`);
      if (++claims % SWEEP_EVERY === 0) await query('claim', sweepClaimsSql(schema), []);
      // Beyond a century a claim never expires (a timestamp that far out would overflow).
      const ttl = ttlMs >= CENTURY_MS ? null : Math.max(1, Math.ceil(ttlMs));
      const { rows } = await query('claim', claimSql(schema), [storedKey(key), ttl]);
      return rows.length === 1;
    },
    async release(key) {
      checkKey(key, 'a claim key', NAME);
      await query('release', releaseSql(schema), [storedKey(key)]);
    },
  };
}
