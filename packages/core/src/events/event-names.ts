import type { AgentEventName } from './agent-events';

/** Every event name, checked against {@link AgentEvents} by the compiler (a missing or extra name fails). */
const names = {
  'run.start': true,
  'run.end': true,
  'run.suspended': true,
  'run.resumed': true,
  'step.start': true,
  'step.end': true,
  'model.request': true,
  'model.content': true,
  'model.response': true,
  'model.error': true,
  'usage.invalid': true,
  'tool.start': true,
  'tool.end': true,
  'tool.validation': true,
  'tool.re-ask': true,
  'validation.failed': true,
  'reliability.retry': true,
  'reliability.wait': true,
  'reliability.recovered': true,
  'reliability.fail-fast': true,
  'reliability.rule-error': true,
  'reliability.feedback-error': true,
  'reliability.loop-detected': true,
  'output.repaired': true,
  'output.mode-downgraded': true,
  'output.schema-lowered': true,
  'context.compacted': true,
  'tools.loaded': true,
  'output.fallback-used': true,
  'mcp.tools-changed': true,
  'mcp.tool-refused': true,
  'mcp.refresh-failed': true,
  'mcp.server-closed': true,
  'listener.error': true,
} as const satisfies Record<AgentEventName, true>;

/** Every event an agent emits, in lifecycle order. */
export const AGENT_EVENT_NAMES: readonly AgentEventName[] = Object.keys(names) as AgentEventName[];
