import { count, defined, type Payload } from './fields';
import { fingerprints, JournalRun, type Positioned } from './journal-run';
import { parentLoops } from './parent-loops';
import type { ReadEntry, ReadEvent, TraceLine } from './parse-trace-line';
import { EventPlacer } from './place-events';
import type { RunSummary, RunView } from './run-view';

/** The runs of a trace: their summaries (newest first), and each run's view on demand. */
export interface TraceRuns {
  /** Runs that no other run in the file called, and runs whose parents loop (`parentLoop`), newest first. */
  readonly runs: readonly RunSummary[];
  /** Every run by id, sub-agents included. */
  readonly byId: ReadonlyMap<string, RunSummary>;
  /** Lines the writer dropped (it could not write them in time), as its notes in the file say. */
  readonly dropped: number;
  /** The view of one run, its sub-agents nested, or `undefined` for an id not in the file. */
  view(runId: string): RunView | undefined;
}

/** One run's lines: its journal entries (each once: a repeated number is left out) and its events, in file order. */
interface RunLines {
  readonly entries: Positioned<ReadEntry>[];
  readonly events: Positioned<ReadEvent>[];
  readonly seqs: Set<number>;
}

/** A run folded: its journal and events, and its own totals (before its sub-agents are added). */
interface Folded {
  readonly run: JournalRun;
  readonly summary: RunSummary;
}

/** Decides what no event decided: a step's accepted call (`accept` for the final answer, else `run tools`), a re-ask's accepted call; and names each call's model. */
function settle(run: JournalRun): void {
  const last = new Map<string, (typeof run.attempts)[number]>();
  for (const attempt of run.attempts) if (attempt.purpose !== 'summary' && attempt.status === 'valid') last.set(`${attempt.step}\u0000${attempt.toolCallId ?? ''}`, attempt);
  const steps = new Map(run.segments.flatMap((segment) => segment.steps).map((step) => [step.step, step]));
  for (const attempt of last.values()) {
    if (attempt.decision) continue;
    if (attempt.toolCallId !== undefined) attempt.decision = { type: 'accept' };
    else {
      const end = steps.get(attempt.step)?.end;
      if (end) attempt.decision = end.final ? { type: 'accept' } : { type: 'run tools' };
    }
  }
  const reAsks = new Map<string, number>();
  for (const attempt of run.attempts) if (attempt.purpose === 'tool-re-ask' && attempt.toolCallId) reAsks.set(attempt.toolCallId, (reAsks.get(attempt.toolCallId) ?? 0) + 1);
  for (const [id, tool] of run.tools) if (reAsks.has(id)) tool.reAsks = reAsks.get(id) as number;
  for (const attempt of run.attempts) {
    const segment = [...run.segments].reverse().find((candidate) => candidate.position <= attempt.position) ?? run.segments[0];
    attempt.provider = attempt.providerIndex === 0 ? (segment?.provider ?? '') : `fallback provider ${attempt.providerIndex}`;
    attempt.model = attempt.providerIndex === 0 ? (segment?.model ?? '') : '';
  }
}

/** One run's own totals: its calls (its sub-agents' left out), or the usage its last entry states (theirs included). */
function summarise(runId: string, lines: RunLines, run: JournalRun): RunSummary {
  const first = run.segments.find((segment) => segment.provider !== '');
  const sum = (field: string) => run.attempts.reduce((total, attempt) => total + (count((attempt.response ?? {}) as Payload, field) ?? 0), 0);
  const priced = run.attempts.every((attempt) => !attempt.response || attempt.response.costUsd !== undefined);
  const stated = run.stated;
  const modelCalls = (stated && count(stated, 'modelCalls')) ?? run.attempts.length;
  const costUsd = stated ? count(stated, 'costUsd') : priced && run.attempts.length > 0 ? sum('costUsd') : undefined;
  const steps = Math.max(0, ...lines.entries.map(({ line }) => line.step), ...lines.events.map(({ line }) => line.payload.step));
  return {
    runId,
    ...defined({ parentRunId: run.parentRunId ?? lines.events.find(({ line }) => line.payload.parentRunId !== undefined)?.line.payload.parentRunId, parentToolCallId: run.parentToolCallId, costUsd }),
    startedAt: run.startedAt ?? lines.entries[0]?.line.at ?? lines.events[0]?.line.payload.timestamp ?? 0,
    status: run.segments.at(-1)?.end?.status ?? 'running',
    provider: first?.provider ?? '',
    model: first?.model ?? '',
    modelCalls,
    inputTokens: (stated && count(stated, 'inputTokens')) ?? sum('inputTokens'),
    outputTokens: (stated && count(stated, 'outputTokens')) ?? sum('outputTokens'),
    subAgentCalls: Math.max(0, modelCalls - run.attempts.length),
    reAsks: run.attempts.filter((attempt) => attempt.purpose === 'tool-re-ask' || (attempt.purpose === 'step' && attempt.attempt > 1)).length,
    steps,
  };
}

/** A running run's totals with its sub-agents' (those that ended or suspended state theirs already). */
function withSubAgents(runId: string, folded: ReadonlyMap<string, Folded>, childrenOf: ReadonlyMap<string, readonly string[]>, lineage: ReadonlySet<string>): RunSummary | undefined {
  const own = folded.get(runId);
  if (!own || own.run.stated) return own?.summary;
  let { modelCalls, inputTokens, outputTokens, costUsd, subAgentCalls } = own.summary;
  const above = new Set([...lineage, runId]);
  for (const childId of childrenOf.get(runId) ?? []) {
    const child = above.has(childId) ? undefined : withSubAgents(childId, folded, childrenOf, above);
    if (!child) continue;
    modelCalls += child.modelCalls;
    subAgentCalls += child.modelCalls;
    inputTokens += child.inputTokens;
    outputTokens += child.outputTokens;
    costUsd = costUsd === undefined || child.costUsd === undefined ? undefined : costUsd + child.costUsd;
  }
  const { costUsd: _cost, ...rest } = own.summary;
  return { ...rest, modelCalls, inputTokens, outputTokens, subAgentCalls, ...defined({ costUsd }) };
}

/**
 * Groups a trace's lines by run and folds each run's journal entries into its view (its parts,
 * steps, model calls and tool calls), then places its events on them (feedback, rules,
 * validation failures, notes). A sub-agent's calls, which its parent's ledger holds too, are
 * shown under the tool call that ran it, never twice.
 */
export function traceRuns(lines: readonly TraceLine[]): TraceRuns {
  const grouped = new Map<string, RunLines>();
  let dropped = 0;
  const group = (runId: string): RunLines => {
    let found = grouped.get(runId);
    if (!found) grouped.set(runId, (found = { entries: [], events: [], seqs: new Set() }));
    return found;
  };
  lines.forEach((line, position) => {
    if (line.kind === 'note') dropped += line.dropped;
    else if (line.kind === 'event') group(line.event.payload.runId).events.push({ line: line.event, position });
    else {
      const run = group(line.entry.runId);
      if (run.seqs.has(line.entry.seq)) return;
      run.seqs.add(line.entry.seq);
      run.entries.push({ line: line.entry, position });
    }
  });
  const parentOf = new Map([...grouped].map(([runId, run]) => [runId, new JournalRun(run.entries.filter(({ line }) => line.type === 'input'), new Set()).parentRunId ?? run.events.find(({ line }) => line.payload.parentRunId !== undefined)?.line.payload.parentRunId]));
  const childrenOf = new Map<string, string[]>();
  for (const [runId, parentRunId] of parentOf) {
    if (parentRunId === undefined || parentRunId === runId) continue;
    const children = childrenOf.get(parentRunId) ?? [];
    childrenOf.set(parentRunId, [...children, runId]);
  }
  const folded = new Map<string, Folded>();
  for (const [runId, lists] of grouped) {
    const subAgents = new Set((childrenOf.get(runId) ?? []).flatMap((childId) => [...fingerprints(grouped.get(childId)?.entries ?? [])]));
    const run = new JournalRun(lists.entries, subAgents);
    new EventPlacer(run).placeAll(lists.events);
    settle(run);
    folded.set(runId, { run, summary: summarise(runId, lists, run) });
  }
  const loops = parentLoops(parentOf);
  const byId = new Map(
    [...folded.keys()].map((runId) => {
      const summary = withSubAgents(runId, folded, childrenOf, new Set()) as RunSummary;
      const parentLoop = loops.get(runId);
      return [runId, parentLoop ? { ...summary, parentLoop } : summary];
    }),
  );
  // A run whose parents loop is listed too, so that every run of the file is in the list or under a listed run.
  const isTopLevel = (summary: RunSummary) => summary.parentRunId === undefined || !byId.has(summary.parentRunId) || summary.parentLoop !== undefined;
  const runs = [...byId.values()].filter(isTopLevel).sort((a, b) => b.startedAt - a.startedAt);

  const view = (runId: string, ancestors: ReadonlySet<string>): RunView | undefined => {
    const own = folded.get(runId);
    const summary = byId.get(runId);
    if (!own || !summary) return undefined;
    const lineage = new Set([...ancestors, runId]);
    const unclaimed: RunView[] = [];
    const claimed = new Map<string, RunView[]>();
    // A sub-agent belongs to the tool call its input entry names; a run never nests in itself.
    for (const childId of childrenOf.get(runId) ?? []) {
      if (lineage.has(childId)) continue;
      const child = view(childId, lineage);
      if (!child) continue;
      const toolCallId = child.summary.parentToolCallId;
      if (toolCallId === undefined || !own.run.tools.has(toolCallId)) unclaimed.push(child);
      else claimed.set(toolCallId, [...(claimed.get(toolCallId) ?? []), child]);
    }
    const segments = own.run.segments.map((segment) => ({ ...segment, steps: segment.steps.map((step) => ({ ...step, tools: step.tools.map((tool) => ({ ...tool, children: claimed.get(tool.toolCallId) ?? [] })) })) }));
    return { summary, contentRecorded: own.run.contentRecorded, segments, attempts: own.run.attempts, children: unclaimed };
  };
  return { runs, byId, dropped, view: (runId) => view(runId, new Set()) };
}
