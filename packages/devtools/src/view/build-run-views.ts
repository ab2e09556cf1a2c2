import { HANDLERS } from './event-handlers';
import type { ReadEvent } from './parse-trace-line';
import { parentLoops } from './parent-loops';
import { isRecordRun } from './record-groups';
import { RecordRunBuilder } from './record-run-builder';
import { summariseRecords } from './record-summary';
import { RunBuilder, type ToolDraft } from './run-builder';
import { summarise, withSubAgents } from './run-summary';
import type { RunSummary, RunView } from './run-view';

/** The runs of a trace: their summaries (newest first), and each run's view on demand. */
export interface TraceRuns {
  /** Runs that no other run in the file called, and runs whose parents loop (`parentLoop`), newest first. */
  readonly runs: readonly RunSummary[];
  /** Every run by id, sub-agents included. */
  readonly byId: ReadonlyMap<string, RunSummary>;
  /** The view of one run, its sub-agents nested, or `undefined` for an id not in the file. */
  view(runId: string): RunView | undefined;
}

/** Builds one run's view from its lines: from its records, or (a trace written event by event) from each event in file order. */
function buildRun(list: readonly ReadEvent[], recorded: boolean, positions: ReadonlyMap<ReadEvent, number>): RunBuilder {
  if (recorded) return new RecordRunBuilder().build(list);
  const builder = new RunBuilder(HANDLERS);
  for (const event of list) builder.add(event, positions.get(event) ?? 0);
  return builder;
}

/**
 * Groups a trace's events by run and builds what the page shows. A run is read from its
 * `run.record` lines when it has any (or, in progress, only the events that format writes), else
 * event by event as before; one file may hold both.
 */
export function traceRuns(events: readonly ReadEvent[]): TraceRuns {
  const grouped = new Map<string, ReadEvent[]>();
  const positions = new Map<ReadEvent, number>();
  events.forEach((event, position) => {
    positions.set(event, position);
    let list = grouped.get(event.payload.runId);
    if (!list) grouped.set(event.payload.runId, (list = []));
    list.push(event);
  });
  const recorded = new Set([...grouped].filter(([, list]) => isRecordRun(list)).map(([runId]) => runId));
  const own = new Map([...grouped].map(([runId, list]) => [runId, recorded.has(runId) ? summariseRecords(runId, list) : summarise(runId, list)]));
  const childrenOf = new Map<string, string[]>();
  for (const summary of own.values()) {
    if (summary.parentRunId === undefined || summary.parentRunId === summary.runId) continue;
    let children = childrenOf.get(summary.parentRunId);
    if (!children) childrenOf.set(summary.parentRunId, (children = []));
    children.push(summary.runId);
  }
  const loops = parentLoops(new Map([...own].map(([runId, summary]) => [runId, summary.parentRunId])));
  const byId = new Map(
    [...own.keys()].map((runId) => {
      const summary = withSubAgents(runId, own, childrenOf, recorded) as RunSummary;
      const parentLoop = loops.get(runId);
      return [runId, parentLoop ? { ...summary, parentLoop } : summary];
    }),
  );
  // A run whose parents loop is listed too, so that every run of the file is in the list or under a listed run.
  const isTopLevel = (summary: RunSummary) => summary.parentRunId === undefined || !byId.has(summary.parentRunId) || summary.parentLoop !== undefined;
  const runs = [...byId.values()].filter(isTopLevel).sort((a, b) => b.startedAt - a.startedAt);

  const view = (runId: string, ancestors: ReadonlySet<string>): RunView | undefined => {
    const list = grouped.get(runId);
    const summary = byId.get(runId);
    if (!list || !summary) return undefined;
    const builder = buildRun(list, recorded.has(runId), positions);
    const lineage = new Set([...ancestors, runId]);
    const tools: ToolDraft[] = builder.segments.flatMap((segment) => segment.steps.flatMap((step) => step.tools));
    const unclaimed: RunView[] = [];
    // A sub-agent belongs to the tool call its record names; written event by event, to the tool
    // call it started during (in file order: such a trace writes events as they happen), the
    // latest started of them. A run never nests in itself.
    for (const childId of childrenOf.get(runId) ?? []) {
      if (lineage.has(childId)) continue;
      const child = view(childId, lineage);
      const first = grouped.get(childId)?.[0];
      if (!child || !first) continue;
      const started = positions.get(first) ?? 0;
      const named = child.summary.parentToolCallId;
      const tool =
        named !== undefined
          ? tools.filter((candidate) => candidate.toolCallId === named).at(-1)
          : recorded.has(childId)
            ? undefined
            : tools.filter((candidate) => candidate.from !== undefined && candidate.from < started && (candidate.to ?? Number.POSITIVE_INFINITY) > started).at(-1);
      if (tool) tool.children.push(child);
      else unclaimed.push(child);
    }
    return { summary, segments: builder.segments, attempts: builder.attempts, children: unclaimed };
  };
  return { runs, byId, view: (runId) => view(runId, new Set()) };
}
