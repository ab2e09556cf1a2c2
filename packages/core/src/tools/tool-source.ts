import type { AgentEventName, EventPayload } from '../events/agent-events';

/** The events a tool source may report: those of an MCP server's connection and listing. */
export type ToolSourceEventName = Extract<AgentEventName, `mcp.${string}`>;

/**
 * Delivers one of a source's events to a run that holds its tools: the run adds `runId`, `step`
 * and `timestamp` and emits it on its agent's bus (`agent.on('mcp.server-closed', ...)`). Never
 * throws: the bus isolates the listeners.
 */
export type ToolSourceEmit = <E extends ToolSourceEventName>(event: E, payload: EventPayload<E>) => void;

/**
 * Where a tool comes from, when that place has events of its own (an MCP server's connection,
 * its changing tool list). An integration sets it as the `source` of the tools it makes; every
 * run of an agent holding one of them observes the source from its start to its end, so the
 * source's events reach that agent's listeners, tied to the run. A source kept by no run holds
 * no reference to any agent.
 */
export interface ToolSource {
  /** Sends the source's events to `emit` until the returned function is called. */
  observe(emit: ToolSourceEmit): () => void;
}
