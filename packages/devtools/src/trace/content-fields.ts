import type { AgentEventName } from '@keel/core';

/**
 * The events a trace writes beside the journal, because no journal entry tells them: which model
 * a run started on, why a call was retried (the rule, the feedback), validation failures, repairs,
 * waits, loops, errors of providers and listeners. Each is rare: a run that goes well writes one
 * (`run.start`). With each, its fields that are content (text the model wrote, or that can quote
 * it), written only with `recordContent`. Everything else a run did is in its journal.
 */
export const TRACED_EVENTS = {
  'run.start': [],
  // A provider's message can quote the output it could not read.
  'model.error': ['message'],
  'usage.invalid': [],
  // The feedback quotes the arguments the model wrote.
  'tool.re-ask': ['feedback'],
  // A parser's message quotes the output; a path is made of keys the model wrote.
  'validation.failed': ['message', 'pathText', 'rawOutput'],
  'reliability.retry': ['feedback'],
  'reliability.wait': [],
  'reliability.recovered': [],
  // A rule's label may name what the model wrote (a loop's label names its tools): content.
  'reliability.fail-fast': ['label'],
  'reliability.rule-error': ['message'],
  'reliability.feedback-error': ['message'],
  // `tools` is checked name by name against the tools the agents declare (see `event-line.ts`).
  'reliability.loop-detected': [],
  // Repair names are Keel's; coerced paths are keys the model wrote.
  'output.repaired': ['coercedPaths'],
  // The provider's message may quote the schema or the output.
  'output.mode-downgraded': ['detail'],
  'output.schema-lowered': [],
  'context.compacted': [],
  'output.fallback-used': ['reason'],
  'listener.error': ['message'],
} as const satisfies Partial<Record<AgentEventName, readonly string[]>>;

/** A name of an event the trace writes. */
export type TracedEvent = keyof typeof TRACED_EVENTS;

/** The names of the events a trace writes. */
export const TRACED_EVENT_NAMES = Object.keys(TRACED_EVENTS) as TracedEvent[];
