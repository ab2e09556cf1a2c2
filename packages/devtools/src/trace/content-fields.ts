import type { AgentEventName } from '@keel/core';

/**
 * What of each event is content (text the model wrote, or text that can quote it): a list of
 * fields, written to the trace file only with `recordContent`, or `'event'` when the whole event
 * is content. A record over every event name: an event added to core fails the type check here
 * until it is classified. Everything else is Keel's own vocabulary (kinds, rule names, counts,
 * token usage, ids you chose) and is always written.
 */
export const CONTENT_FIELDS = {
  'run.start': [],
  // A fail-fast's or a guard's message quotes the output.
  'run.end': ['errorMessage'],
  'run.suspended': [],
  'run.resumed': [],
  'step.start': [],
  'step.end': [],
  'model.request': [],
  // The request's messages and the response's parts: content through and through.
  'model.content': 'event',
  'model.response': [],
  // A provider's message can quote the output it could not read.
  'model.error': ['message'],
  'usage.invalid': [],
  // The name the model called may be one it made up (an unknown tool).
  'tool.start': ['tool'],
  'tool.end': [],
  'tool.validation': [],
  // The feedback quotes the arguments the model wrote.
  'tool.re-ask': ['feedback'],
  // A parser's message quotes the output; a path is made of keys the model wrote.
  'validation.failed': ['message', 'pathText', 'rawOutput'],
  'reliability.retry': ['feedback'],
  'reliability.wait': [],
  'reliability.recovered': [],
  'reliability.fail-fast': [],
  'reliability.rule-error': ['message'],
  'reliability.feedback-error': ['message'],
  'reliability.loop-detected': [],
  // Repair names are Keel's; coerced paths are keys the model wrote.
  'output.repaired': ['coercedPaths'],
  // The provider's message may quote the schema or the output.
  'output.mode-downgraded': ['detail'],
  'output.schema-lowered': [],
  'context.compacted': [],
  'output.fallback-used': ['reason'],
  'listener.error': ['message'],
} as const satisfies Record<AgentEventName, readonly string[] | 'event'>;

/** The events whose every byte is content: listened to only with `recordContent`. */
export const CONTENT_EVENTS: readonly AgentEventName[] = (Object.keys(CONTENT_FIELDS) as AgentEventName[]).filter((name) => CONTENT_FIELDS[name] === 'event');

/** Every event name, in the order core lists its lifecycle. */
export const TRACED_EVENTS: readonly AgentEventName[] = Object.keys(CONTENT_FIELDS) as AgentEventName[];

/**
 * The events a run's record tells (`builder.onRecord()`): a trace writes the record and never
 * listens to them, so a run that goes well costs one record, not an event at each step.
 */
export const RECORDED_EVENTS: readonly AgentEventName[] = ['run.start', 'run.end', 'step.start', 'step.end', 'model.request', 'model.response', 'tool.start', 'tool.end', 'tool.validation'];
