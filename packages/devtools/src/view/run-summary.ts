import { count, defined, text } from './fields';
import type { ReadEvent } from './parse-trace-line';
import type { RunSummary } from './run-view';

/** A run's own totals from its events (in file order): every model call counted, as the ledger counts it; sub-agents are added by {@link withSubAgents}. */
export function summarise(runId: string, events: readonly ReadEvent[]): RunSummary {
  let status = 'running';
  let provider = '';
  let model = '';
  let modelCalls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd: number | undefined = 0;
  let responses = 0;
  let reAsks = 0;
  let steps = 0;
  let parentRunId: string | undefined;
  for (const { event, payload } of events) {
    parentRunId ??= payload.parentRunId;
    steps = Math.max(steps, payload.step);
    if (event === 'run.start') {
      status = 'running';
      provider ||= text(payload, 'provider') ?? '';
      model ||= text(payload, 'model') ?? '';
    } else if (event === 'run.end') status = text(payload, 'status') ?? 'ended';
    else if (event === 'model.request') modelCalls++;
    else if (event === 'model.response') {
      responses++;
      inputTokens += count(payload, 'inputTokens') ?? 0;
      outputTokens += count(payload, 'outputTokens') ?? 0;
      const cost = count(payload, 'costUsd');
      costUsd = cost === undefined || costUsd === undefined ? undefined : costUsd + cost;
    } else if (event === 'reliability.retry' || event === 'tool.re-ask') reAsks++;
  }
  const summary = { runId, startedAt: events[0]?.payload.timestamp ?? 0, status, provider, model, modelCalls, inputTokens, outputTokens, reAsks, steps, subAgentCalls: 0 };
  return {
    ...summary,
    ...(parentRunId === undefined ? {} : { parentRunId }),
    ...(costUsd === undefined || responses === 0 ? {} : { costUsd }),
  };
}

/**
 * A run's totals with those of its sub-agents (`lineage`: the runs above it, never counted twice).
 * `inclusive`: the runs whose own totals already count their sub-agents (read from a run record),
 * returned as they are.
 */
export function withSubAgents(
  runId: string,
  own: ReadonlyMap<string, RunSummary>,
  childrenOf: ReadonlyMap<string, readonly string[]>,
  inclusive: ReadonlySet<string> = new Set(),
  lineage: ReadonlySet<string> = new Set(),
): RunSummary | undefined {
  const summary = own.get(runId);
  if (!summary || inclusive.has(runId)) return summary;
  let { modelCalls, inputTokens, outputTokens, costUsd } = summary;
  let subAgentCalls = 0;
  const above = new Set([...lineage, runId]);
  for (const childId of childrenOf.get(runId) ?? []) {
    const child = above.has(childId) ? undefined : withSubAgents(childId, own, childrenOf, inclusive, above);
    if (!child) continue;
    modelCalls += child.modelCalls;
    subAgentCalls += child.modelCalls;
    inputTokens += child.inputTokens;
    outputTokens += child.outputTokens;
    costUsd = costUsd === undefined || child.costUsd === undefined ? undefined : costUsd + child.costUsd;
  }
  return defined({ ...summary, modelCalls, inputTokens, outputTokens, subAgentCalls, costUsd });
}
