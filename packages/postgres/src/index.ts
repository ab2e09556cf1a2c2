export { PostgresRefusedError } from './errors/postgres-refused-error';
export { PostgresUnavailableError } from './errors/postgres-unavailable-error';
export type { PostgresConnection } from './postgres/open-pool';
export type { PostgresPool, PostgresPoolClient, PostgresQueryable, PostgresResult } from './postgres/postgres-pool';
export type { PostgresStoreHandle, PostgresStoreOptions } from './postgres/store-connection';
export { postgresRunStore, type PostgresRunStore, type PostgresRunStoreOptions } from './runs/postgres-run-store';
