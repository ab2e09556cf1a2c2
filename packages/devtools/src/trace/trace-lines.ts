import type { AgentEvents, JournalEntry, ToolCallRecord } from '@keel/core';
import { TRACED_EVENTS, type TracedEvent } from './content-fields';

/** How lines are made: with content or without, secrets replaced either way. */
export interface LineOptions {
  readonly recordContent: boolean;
  /** Replaces secrets inside JSON text (see `secretRedactor`). */
  readonly redact: (json: string) => string;
  /**
   * Names of tools the traced agents declare, as their calls' records show them (a call of a tool
   * the model made up is recorded `unknown-tool`): without content, only these names are written.
   */
  readonly knownTools: Set<string>;
}

/** Tool names remembered at most: beyond, a name not remembered yet is written as `?` without content. */
const MAX_KNOWN_TOOLS = 10_000;

type Fields = Record<string, unknown>;
type NextStep = NonNullable<JournalEntry['next']>;
type CallDecision = NonNullable<JournalEntry['decisions']>[string];

/** A tool call's record without content: its arguments and output left out, its name only when the tool is declared. */
function callWithoutContent(call: ToolCallRecord, tools: Set<string>): Fields {
  const written: Fields = { toolCallId: call.toolCallId };
  if (call.errorCode !== 'unknown-tool') {
    written.toolName = call.toolName;
    if (tools.size < MAX_KNOWN_TOOLS) tools.add(call.toolName);
  }
  if (call.coercions) written.coercions = call.coercions.map((coercion) => ({ kind: coercion.kind }));
  written.isError = call.isError;
  if (call.errorCode !== undefined) written.errorCode = call.errorCode;
  written.step = call.step;
  written.durationMs = call.durationMs;
  return written;
}

/** The next step without what the model wrote: its type, and why for a compaction. */
function nextWithoutContent(next: NextStep): Fields {
  if (next.type === 'compact-context') return { type: next.type, reason: next.reason };
  if (next.type === 'ask-model' && next.compacted !== undefined) return { type: next.type, compacted: next.compacted };
  return { type: next.type };
}

const decisionsWithoutContent = (decisions: Readonly<Record<string, CallDecision>>): Fields => {
  const written: Fields = {};
  for (const id of Object.keys(decisions)) written[id] = { type: (decisions[id] as CallDecision).type };
  return written;
};

function suspensionWithoutContent(suspension: NonNullable<JournalEntry['suspension']>): Fields {
  const written: Fields = {
    agent: suspension.agent,
    expiresAt: suspension.expiresAt,
    suspensionId: suspension.suspensionId,
    suspendedAt: suspension.suspendedAt,
    pending: suspension.pending.map((call) => ({ toolCallId: call.toolCallId, toolName: call.toolName })),
  };
  if (suspension.unknown) written.unknown = suspension.unknown.map((call) => ({ toolCallId: call.toolCallId, toolName: call.toolName, idempotencyKey: call.idempotencyKey }));
  written.usage = suspension.usage;
  return written;
}

function compactionWithoutContent(compaction: NonNullable<JournalEntry['compaction']>): Fields {
  const cleared: Fields = {};
  for (const id of Object.keys(compaction.cleared)) cleared[id] = '';
  const written: Fields = { cleared, count: compaction.count };
  if (compaction.summary) written.summary = { through: compaction.summary.through };
  if (compaction.window !== undefined) written.window = compaction.window;
  return written;
}

/**
 * A journal entry as a trace writes it without content: the fields listed here (a field core adds
 * later is left out until it is listed), with every string the model wrote or that can quote it
 * left out (messages, texts, raw outputs, validation messages and paths, tool arguments and
 * outputs, the answer, error messages, the system prompt, names of tools the agents do not
 * declare), and `withoutContent: true`. Counts, kinds, usage, ids and times are kept. `mac` is
 * left out too: it chains the entry with its content.
 */
export function entryWithoutContent(entry: JournalEntry, tools: Set<string>): Fields {
  const written: Fields = { seq: entry.seq, type: entry.type, runId: entry.runId, at: entry.at, step: entry.step, elapsedMs: entry.elapsedMs };
  const { start, steps, toolCalls, attempts, compaction, next, intent, outcome, suspension, decisions, end } = entry;
  if (start) {
    const { system: _system, ...started } = start;
    written.start = started;
  }
  if (steps) written.steps = steps.map((step) => ({ step: step.step, finishReason: step.finishReason, toolCalls: step.toolCalls, modelCalls: step.modelCalls, durationMs: step.durationMs }));
  if (toolCalls) written.toolCalls = toolCalls.map((call) => callWithoutContent(call, tools));
  if (attempts) {
    written.attempts = attempts.map((attempt) => {
      const { rawOutput: _raw, issues, ...kept } = attempt;
      return { ...kept, issues: issues.map((issue) => ({ kind: issue.kind })) };
    });
  }
  if (compaction) written.compaction = compactionWithoutContent(compaction);
  if (entry.loops !== undefined) written.loops = entry.loops;
  if (next) written.next = nextWithoutContent(next);
  if (intent) {
    written.intent = { toolCallId: intent.toolCallId, toolName: intent.toolName };
    if (tools.size < MAX_KNOWN_TOOLS) tools.add(intent.toolName);
  }
  if (outcome) written.outcome = callWithoutContent(outcome, tools);
  if (suspension) written.suspension = suspensionWithoutContent(suspension);
  if (decisions) written.decisions = decisionsWithoutContent(decisions);
  if (end) {
    const ended: Fields = { finishReason: end.finishReason };
    if (end.errorName !== undefined) ended.errorName = end.errorName;
    if (end.aborted !== undefined) ended.aborted = end.aborted;
    ended.usage = end.usage;
    written.end = ended;
  }
  written.withoutContent = true;
  return written;
}

/** The line a journal entry is written as: the entry (without content unless `recordContent`), secrets replaced. */
export function entryLine(entry: JournalEntry, { recordContent, redact, knownTools }: LineOptions): string {
  return `${redact(JSON.stringify(recordContent ? entry : entryWithoutContent(entry, knownTools)))}\n`;
}

/**
 * The line an event is written as, `{"event":…,"payload":…}`: its content fields left out unless
 * `recordContent`, and without it, a loop's tools that are not declared written as `?`. Secrets
 * replaced either way.
 */
export function eventLine<E extends TracedEvent>(event: E, payload: AgentEvents[E], { recordContent, redact, knownTools }: LineOptions): string {
  let written: Fields = payload as unknown as Fields;
  if (!recordContent) {
    const content: readonly string[] = TRACED_EVENTS[event];
    written = Object.fromEntries(Object.entries(written).filter(([key]) => !content.includes(key)));
    if (event === 'reliability.loop-detected' && typeof written.tools === 'string' && written.tools !== '') {
      written.tools = written.tools
        .split(',')
        .map((name) => (knownTools.has(name.trim()) ? name.trim() : '?'))
        .join(',');
    }
  }
  return `${redact(JSON.stringify({ event, payload: written }))}\n`;
}
