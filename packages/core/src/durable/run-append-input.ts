/** What every run store checks of its input before it writes anything (memory, Redis, PostgreSQL alike). */
import type { RunAppend, RunStatus } from '../contracts/run-store';

const STATUSES: ReadonlySet<string> = new Set<RunStatus>(['running', 'suspended', 'complete', 'failed']);

/** Whether `value` is a run status a store keeps. */
export function isRunStatus(value: unknown): value is RunStatus {
  return typeof value === 'string' && STATUSES.has(value);
}

/** Checks a run id or claim key: a non-empty string. */
export function checkStoreKey(value: unknown, what: string, store: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${store}: ${what} must be a non-empty string, got ${value === '' ? 'an empty string' : typeof value}`);
  return value;
}

/** An append, checked, with each entry as the JSON text the store keeps. */
export interface CheckedAppend {
  readonly agentId: string;
  readonly tenant: string | undefined;
  readonly status: RunStatus;
  readonly texts: readonly string[];
}

/**
 * Checks an append before anything is sent: an agent id, a status, a tenant that is a string when
 * given, and entries that are all JSON objects (each turned into its JSON text). Throws a
 * `TypeError` naming what is wrong, so a bad append writes nothing.
 */
export function checkAppend(append: RunAppend, store: string): CheckedAppend {
  if (typeof append !== 'object' || append === null) throw new TypeError(`${store}: an append must be an object`);
  const agentId = checkStoreKey(append.agentId, 'an agent id', store);
  if (!isRunStatus(append.status)) throw new TypeError(`${store}: an append's status must be running, suspended, complete or failed, got ${String(append.status)}`);
  if (append.tenant !== undefined && typeof append.tenant !== 'string') throw new TypeError(`${store}: an append's tenant must be a string when given`);
  if (!Array.isArray(append.entries)) throw new TypeError(`${store}: an append's entries must be an array`);
  const texts = append.entries.map((entry: unknown, index: number) => {
    let text: string | undefined;
    try {
      text = JSON.stringify(entry);
    } catch (error) {
      throw new TypeError(`${store}: entry ${index} of an append must be JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    if (typeof text !== 'string' || typeof entry !== 'object' || entry === null) throw new TypeError(`${store}: entry ${index} of an append must be a JSON object`);
    return text;
  });
  return { agentId, tenant: append.tenant, status: append.status, texts };
}

/** Checks a lease before an append: its run id and a numeric fence. */
export function checkLease(lease: unknown, store: string): { runId: string; fence: number } {
  const given = lease as { runId?: unknown; fence?: unknown } | null | undefined;
  const runId = checkStoreKey(given?.runId, 'a lease run id', store);
  if (typeof given?.fence !== 'number' || !Number.isSafeInteger(given.fence)) throw new TypeError(`${store}: a lease fence must be an integer`);
  return { runId, fence: given.fence };
}
