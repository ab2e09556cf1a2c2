export { ConversationBusyError } from '@keel/core/internal';
export { MemoryLeaseLostError } from '@keel/core/internal';
export { PostgresError, type PostgresProblem } from './errors/postgres-error';
export { postgresMemory, type PostgresMemory } from './memory/postgres-memory';
export type { ConversationPolicy, PostgresMemoryOptions } from './memory/memory-settings';
export type { PostgresConnection } from './postgres/open-pool';
export type { PostgresPool, PostgresPoolClient, PostgresQueryable, PostgresResult } from './postgres/postgres-pool';
export type { PostgresStoreHandle, PostgresStoreOptions } from './postgres/store-connection';
export { postgresRunStore, type PostgresRunStore, type PostgresRunStoreOptions } from './runs/postgres-run-store';
