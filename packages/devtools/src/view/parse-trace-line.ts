import { isObject } from './fields';

/** One event read back from a trace file: its name and payload, checked for the fields every event has. */
export interface ReadEvent {
  readonly event: string;
  readonly payload: Readonly<Record<string, unknown>> & { readonly runId: string; readonly step: number; readonly timestamp: number; readonly parentRunId?: string };
}

/**
 * Reads one line of a trace file, or `undefined` when it is not an event (not JSON, no event
 * name, no payload with a run id, a step and a timestamp). Events of names the viewer does not
 * know are kept: a newer Keel may write them.
 */
export function parseTraceLine(line: string): ReadEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value.event !== 'string' || !isObject(value.payload)) return undefined;
  const { payload } = value;
  if (typeof payload.runId !== 'string' || payload.runId === '' || typeof payload.step !== 'number' || typeof payload.timestamp !== 'number') return undefined;
  if (payload.parentRunId !== undefined && typeof payload.parentRunId !== 'string') return undefined;
  return value as unknown as ReadEvent;
}
