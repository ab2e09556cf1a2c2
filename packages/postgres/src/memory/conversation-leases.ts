import { type ConversationLeases, conversationLeases } from '@keel/core/internal';
import type { StoreConnection } from '../postgres/store-connection';
import { storedKey } from '../postgres/stored-key';
import { renewSql } from './memory-statements';

/** Keeps the leases of a PostgreSQL memory store's runs (core's leases, renewed by a statement); a token is the conversation's fencing counter when the lease was taken. */
export function postgresLeases(connection: StoreConnection, leaseMs: number): ConversationLeases {
  return conversationLeases(leaseMs, async (conversationId, runId, token) => {
    const { rows } = await connection.query('memory lease renewal', renewSql(connection.schema), [storedKey(conversationId), token, storedKey(runId), leaseMs]);
    return rows.length > 0;
  });
}
