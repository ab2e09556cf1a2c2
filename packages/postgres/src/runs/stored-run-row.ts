import { PostgresError } from '../errors/postgres-error';
import type { StoredRun } from '@keel/core';
import { isRunStatus } from '@keel/core/internal';

/**
 * The run a load's row describes, or `undefined` for no row (no such run). A status Keel does not
 * know, an entry that is not JSON, or entries that do not match the run's version fail with a
 * `PostgresError` (`refused`) naming the table.
 */
export function storedRunOf(runId: string, schema: string, row: Record<string, unknown> | undefined): StoredRun | undefined {
  if (row === undefined) return undefined;
  const refused = (table: string, message: string, cause?: unknown) => new PostgresError({ problem: 'refused', operation: 'run store load', table: `${schema}.${table}`, message, cause });
  const { agent_id: agentId, tenant, status, version, entries: texts } = row;
  if (!isRunStatus(status)) throw refused('runs', `the run's status ${JSON.stringify(status)} is not a run status`);
  if (!Array.isArray(texts) || texts.length !== Number(version)) throw refused('run_entries', `the run has ${Array.isArray(texts) ? texts.length : 'no'} entries where its version says ${String(version)}`);
  const entries = texts.map((text: unknown, index) => {
    try {
      return JSON.parse(String(text)) as unknown;
    } catch (error) {
      throw refused('run_entries', `entry ${index} is not JSON`, error);
    }
  });
  return { runId, agentId: String(agentId), ...(typeof tenant === 'string' ? { tenant } : {}), status, entries, version: entries.length };
}
