import { count, defined, isObject, type Payload, text } from './fields';
import type { ReadEvent } from './parse-trace-line';
import { recordGroups } from './record-groups';
import { entriesOf } from './record-view';
import type { RunSummary } from './run-view';

/** The sum of a usage field over a record's own model calls. */
const sumOf = (attempts: readonly unknown[], field: string): number => attempts.reduce<number>((sum, entry) => sum + (isObject(entry) ? (count(entry, field) ?? 0) : 0), 0);

/**
 * A run's totals in the record format: those of its last record, whose usage counts its
 * sub-agents' calls too (as `run.end`'s did): the calls beyond its own are theirs. Re-asks are
 * counted as for a run written event by event: each `reliability.retry` (every retry of an
 * answer, a transient one included) and each `tool.re-ask` line of the run. A run whose last
 * segment has no record yet is `running`, with the totals of its last record (none before it).
 * A record that lacks a total gets the sum of its own calls; a cost it lacks stays unknown.
 */
export function summariseRecords(runId: string, events: readonly ReadEvent[]): RunSummary {
  const groups = recordGroups(events);
  const records = groups.flatMap((group): Payload[] => (group.record ? [group.record] : []));
  const first = records[0];
  const last = records.at(-1);
  const own = last ? entriesOf(last, 'attempts') : [];
  const modelCalls = last ? (count(last, 'modelCalls') ?? own.length) : 0;
  const named = (field: string) => records.map((record) => text(record, field)).find((value) => value !== undefined) ?? events.map((event) => text(event.payload, field)).find((value) => value !== undefined);
  return {
    runId,
    ...defined({ parentRunId: named('parentRunId'), parentToolCallId: records.map((record) => text(record, 'parentToolCallId')).find((value) => value !== undefined) }),
    startedAt: (first && count(first, 'startedAt')) ?? events[0]?.payload.timestamp ?? 0,
    status: groups.at(-1)?.record === undefined ? 'running' : (text(last ?? {}, 'status') ?? 'ended'),
    provider: (first && text(first, 'provider')) ?? named('provider') ?? '',
    model: (first && text(first, 'model')) ?? named('model') ?? '',
    modelCalls,
    inputTokens: last ? (count(last, 'inputTokens') ?? sumOf(own, 'inputTokens')) : 0,
    outputTokens: last ? (count(last, 'outputTokens') ?? sumOf(own, 'outputTokens')) : 0,
    ...defined({ costUsd: last && count(last, 'costUsd') }),
    subAgentCalls: Math.max(0, modelCalls - own.length),
    reAsks: events.filter((event) => event.event === 'reliability.retry' || event.event === 'tool.re-ask').length,
    ...(last ? {} : { totalsPending: true as const }),
    steps: events.reduce((steps, event) => Math.max(steps, event.payload.step), 0),
  };
}
