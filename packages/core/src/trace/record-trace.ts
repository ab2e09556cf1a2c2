import type { AgentBuilder, Extension } from '../agent/agent';
import type { AgentEventName, AgentEvents } from '../events/agent-events';
import { AGENT_EVENT_NAMES } from '../events/event-names';

/** One recorded event: its name and its payload (plain data). */
export type TraceEvent = { [E in AgentEventName]: { readonly event: E; readonly payload: AgentEvents[E] } }[AgentEventName];

/** The events of one run, in the order they were emitted. */
export interface RunTrace {
  readonly runId: string;
  readonly events: readonly TraceEvent[];
}

/** What {@link recordTrace} collected: JSON-serialisable, for tests, bug reports and replay. */
export interface Trace {
  readonly version: 1;
  readonly runs: readonly RunTrace[];
}

/** The extension returned by {@link recordTrace}, with the trace it collects. */
export interface TraceRecorder extends Extension {
  /** Every run recorded so far, in the order they started. */
  trace(): Trace;
  /** The events of one run (an empty list for a run it has not seen). */
  events(runId: string): readonly TraceEvent[];
  /** Forgets everything recorded. */
  clear(): void;
  /** `JSON.stringify(recorder)` gives the trace. */
  toJSON(): Trace;
}

/**
 * Records every event of every run of the agents it is attached to
 * (`builder.use(recorder)`), grouped by run. The trace is plain data: `JSON.stringify` it into a
 * bug report or a fixture, and assert on it in tests.
 */
export function recordTrace(): TraceRecorder {
  const runs = new Map<string, TraceEvent[]>();
  const record = (event: AgentEventName, payload: AgentEvents[AgentEventName]) => {
    let events = runs.get(payload.runId);
    if (!events) runs.set(payload.runId, (events = []));
    events.push({ event, payload } as TraceEvent);
  };
  const extension = <TOutput>(builder: AgentBuilder<TOutput>): AgentBuilder<TOutput> =>
    AGENT_EVENT_NAMES.reduce((current, name) => current.on(name, (payload) => record(name, payload)), builder);
  const trace = (): Trace => ({ version: 1, runs: [...runs].map(([runId, events]) => ({ runId, events: [...events] })) });
  return Object.assign(extension, {
    trace,
    events: (runId: string): readonly TraceEvent[] => [...(runs.get(runId) ?? [])],
    clear: () => runs.clear(),
    toJSON: trace,
  });
}
