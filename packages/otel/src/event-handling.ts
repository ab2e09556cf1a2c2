import type { AgentEventName } from '@keel/core';

/**
 * How {@link telemetry} treats an event: `recorded` (it opens, annotates or ends a span, or adds a
 * span event), `content` (recorded only with `recordContent`), `ignored` (on purpose).
 */
export type EventHandling = 'recorded' | 'content' | 'ignored';

/**
 * Every core event and what telemetry does with it. A record over every event name: an event
 * added to core fails the type check here until it is classified (and the test checks that
 * telemetry listens to exactly the events marked as recorded).
 */
export const EVENT_HANDLING = {
  'run.start': 'recorded',
  'run.end': 'recorded',
  // A suspended run's span ends at its `run.end` (status `suspended`); a resumed run is a new span
  // under the same run id, from its `run.start`.
  'run.suspended': 'ignored',
  'run.resumed': 'ignored',
  // No span per step (the GenAI conventions have none): chat and execute_tool spans carry `keel.step`.
  'step.start': 'ignored',
  'step.end': 'recorded',
  'model.request': 'recorded',
  'model.content': 'content',
  'model.response': 'recorded',
  'model.error': 'recorded',
  'usage.invalid': 'recorded',
  'tool.start': 'recorded',
  'tool.end': 'recorded',
  'tool.validation': 'recorded',
  'tool.re-ask': 'recorded',
  'validation.failed': 'recorded',
  'reliability.retry': 'recorded',
  'reliability.wait': 'recorded',
  'reliability.recovered': 'recorded',
  'reliability.fail-fast': 'recorded',
  'reliability.rule-error': 'recorded',
  'reliability.feedback-error': 'recorded',
  'reliability.loop-detected': 'recorded',
  'output.repaired': 'recorded',
  // A downgrade of the output mode (a 400 refusing a schema, a schema that cannot be lowered) is a span event.
  'output.mode-downgraded': 'recorded',
  // What lowering removed from a schema: a debugging aid, the same for every run of an agent.
  'output.schema-lowered': 'ignored',
  // A compaction of what the run sends (tier, tokens before and after) is a span event.
  'context.compacted': 'recorded',
  'output.fallback-used': 'recorded',
  // Which deferred tools a turn loaded (tool search): in the run's journal and its trace, not a span's.
  'tools.loaded': 'ignored',
  // An MCP server's own events (its tool list, its connection): the tool spans carry the failures they cause.
  'mcp.tools-changed': 'ignored',
  'mcp.tool-refused': 'ignored',
  'mcp.refresh-failed': 'ignored',
  'mcp.server-closed': 'ignored',
  'listener.error': 'recorded',
} as const satisfies Record<AgentEventName, EventHandling>;
