import { RedisError } from '../errors/redis-error';
import type { StoredRun } from '@keel/core';
import { isRunStatus } from '@keel/core/internal';
import type { RunKeys } from './run-keys';

/**
 * The run the load script's reply describes (`{agentId, status, hasTenant, tenant, entry...}`),
 * or `undefined` for an empty reply (no such run). A status or an entry Keel cannot read fails
 * with a `RedisError` (`key`) naming its key.
 */
export function storedRunOf(runId: string, keys: RunKeys, reply: unknown): StoredRun | undefined {
  if (!Array.isArray(reply) || reply.length === 0) return undefined;
  const [agentId, status, hasTenant, tenant, ...texts] = reply.map(String);
  if (!isRunStatus(status)) throw new RedisError({ problem: 'key', key: keys.meta, operation: 'run store load', message: `its status ${JSON.stringify(status)} is not a run status` });
  const entries = texts.map((text, index) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new RedisError({ problem: 'key', key: keys.entries, operation: 'run store load', message: `entry ${index} is not JSON`, cause: error });
    }
  });
  return { runId, agentId: agentId ?? '', ...(hasTenant === '1' ? { tenant: tenant ?? '' } : {}), status, entries, version: entries.length };
}
